/// What an output's queue and threads count for themselves, read at report time
/// (`OutputMeter.setProbe`).
public struct OutputProbe: Sendable, Equatable {
    public var queuedPackets = 0
    /// Media waiting to be sent, in milliseconds of capture time.
    public var queuedMilliseconds = 0
    /// Frames dropped because the output did not keep up.
    public var droppedCongestion = 0
    /// Frames thrown away because there was no connection to send them on.
    public var droppedDisconnected = 0
    public var reconnects = 0
    public var sentFrames = 0
    /// A file output with `max_frames` that has them.
    public var isComplete = false
    /// A segmented recording's own figures; nil for every other output.
    public var recording: RecordingReading?

    public init(
        queuedPackets: Int = 0, queuedMilliseconds: Int = 0, droppedCongestion: Int = 0, droppedDisconnected: Int = 0,
        reconnects: Int = 0, sentFrames: Int = 0, isComplete: Bool = false, recording: RecordingReading? = nil
    ) {
        self.recording = recording
        self.queuedPackets = queuedPackets
        self.queuedMilliseconds = queuedMilliseconds
        self.droppedCongestion = droppedCongestion
        self.droppedDisconnected = droppedDisconnected
        self.reconnects = reconnects
        self.sentFrames = sentFrames
        self.isComplete = isComplete
    }
}
