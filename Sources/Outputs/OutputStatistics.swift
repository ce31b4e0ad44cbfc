import Telemetry

/// What an output tells the status line. Outputs without a queue (files) report zeros.
package struct OutputStatistics: Sendable, Equatable {
    /// Packets waiting to be sent.
    package var queuedPackets = 0
    /// Frames dropped because the output did not keep up (always a run ending at a keyframe).
    package var droppedFrames = 0
    /// Frames thrown away because there was no connection to send them on.
    package var discardedFrames = 0
    /// Times the output had to connect again after a failure.
    package var reconnects = 0
    /// Video frames that left through this output (sent to the socket, written to the file).
    package var sentFrames = 0
    /// The output did all it was asked to (an `.h264` output with `max_frames` that has them):
    /// its rate no longer says anything about the stream.
    package var isComplete = false
    /// Media waiting to be sent, in milliseconds of capture time.
    package var queuedMilliseconds = 0

    package init(
        queuedPackets: Int = 0, droppedFrames: Int = 0, discardedFrames: Int = 0, reconnects: Int = 0, sentFrames: Int = 0,
        isComplete: Bool = false, queuedMilliseconds: Int = 0
    ) {
        self.queuedMilliseconds = queuedMilliseconds
        self.queuedPackets = queuedPackets
        self.droppedFrames = droppedFrames
        self.discardedFrames = discardedFrames
        self.reconnects = reconnects
        self.sentFrames = sentFrames
        self.isComplete = isComplete
    }

    package static func + (lhs: OutputStatistics, rhs: OutputStatistics) -> OutputStatistics {
        OutputStatistics(
            queuedPackets: lhs.queuedPackets + rhs.queuedPackets, droppedFrames: lhs.droppedFrames + rhs.droppedFrames,
            discardedFrames: lhs.discardedFrames + rhs.discardedFrames, reconnects: lhs.reconnects + rhs.reconnects,
            sentFrames: lhs.sentFrames + rhs.sentFrames)
    }
}


extension OutputStatistics {
    /// The figures the registry reads from the output at report time.
    package var probe: OutputProbe {
        OutputProbe(
            queuedPackets: queuedPackets, queuedMilliseconds: queuedMilliseconds, droppedCongestion: droppedFrames,
            droppedDisconnected: discardedFrames, reconnects: reconnects, sentFrames: sentFrames, isComplete: isComplete)
    }
}
