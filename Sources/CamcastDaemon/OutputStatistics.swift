/// What an output tells the status line. Outputs without a queue (files) report zeros.
struct OutputStatistics: Sendable, Equatable {
    /// Packets waiting to be sent.
    var queuedPackets = 0
    /// Frames dropped because the output did not keep up (always a run ending at a keyframe).
    var droppedFrames = 0
    /// Frames thrown away because there was no connection to send them on.
    var discardedFrames = 0
    /// Times the output had to connect again after a failure.
    var reconnects = 0
    /// Video frames that left through this output (sent to the socket, written to the file).
    var sentFrames = 0
    /// The output did all it was asked to (an `.h264` output with `max_frames` that has them):
    /// its rate no longer says anything about the stream.
    var isComplete = false

    static func + (lhs: OutputStatistics, rhs: OutputStatistics) -> OutputStatistics {
        OutputStatistics(
            queuedPackets: lhs.queuedPackets + rhs.queuedPackets, droppedFrames: lhs.droppedFrames + rhs.droppedFrames,
            discardedFrames: lhs.discardedFrames + rhs.discardedFrames, reconnects: lhs.reconnects + rhs.reconnects,
            sentFrames: lhs.sentFrames + rhs.sentFrames)
    }
}

