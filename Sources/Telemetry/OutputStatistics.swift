/// What an output counts for itself — its queue, its drops, its reconnects, what left it — read
/// at report time: by the registry for /status and /metrics (`OutputMeter.setStatistics`), by the
/// status line, the stop summary and the printed graph. One type for all of them (issue 39 #5):
/// an output fills in what it has and leaves the rest at zero.
public struct OutputStatistics: Sendable, Equatable {
    /// Packets waiting to be sent (or written).
    public var queuedPackets = 0
    /// Media waiting to be sent, in milliseconds of capture time.
    public var queuedMilliseconds = 0
    /// How much media the output's queue holds before it drops to the next keyframe (ms of
    /// capture time); 0 for an output that reports no queue of its own.
    public var queueBoundMilliseconds = 0
    /// Frames dropped because the output did not keep up (always a run ending at a keyframe).
    public var droppedFrames = 0
    /// Frames thrown away because there was no connection to send them on.
    public var discardedFrames = 0
    /// Times the output had to connect again after a failure.
    public var reconnects = 0
    /// Video frames that left through this output (sent to the socket, written to the file).
    public var sentFrames = 0
    /// The output did all it was asked to (an `.h264` output with `max_frames` that has them):
    /// its rate no longer says anything about the stream.
    public var isComplete = false
    /// A segmented recording's own figures; nil for every other output.
    public var recording: RecordingReading?

    public init(
        queuedPackets: Int = 0, queuedMilliseconds: Int = 0, queueBoundMilliseconds: Int = 0, droppedFrames: Int = 0,
        discardedFrames: Int = 0, reconnects: Int = 0, sentFrames: Int = 0, isComplete: Bool = false, recording: RecordingReading? = nil
    ) {
        self.queuedPackets = queuedPackets
        self.queuedMilliseconds = queuedMilliseconds
        self.queueBoundMilliseconds = queueBoundMilliseconds
        self.droppedFrames = droppedFrames
        self.discardedFrames = discardedFrames
        self.reconnects = reconnects
        self.sentFrames = sentFrames
        self.isComplete = isComplete
        self.recording = recording
    }

    /// The run's totals (the stop summary): counts add up; the queue figures and the rest are not summed.
    public static func + (lhs: OutputStatistics, rhs: OutputStatistics) -> OutputStatistics {
        OutputStatistics(
            queuedPackets: lhs.queuedPackets + rhs.queuedPackets, droppedFrames: lhs.droppedFrames + rhs.droppedFrames,
            discardedFrames: lhs.discardedFrames + rhs.discardedFrames, reconnects: lhs.reconnects + rhs.reconnects,
            sentFrames: lhs.sentFrames + rhs.sentFrames)
    }
}
