/// What an output tells the status line. Outputs without a queue (files) report zeros.
struct OutputStatistics: Sendable, Equatable {
    /// Packets waiting to be sent.
    var queuedPackets = 0
    /// Frames dropped because the output did not keep up.
    var droppedFrames = 0
    /// Times the output had to connect again after a failure.
    var reconnects = 0
}

extension StreamOutput {
    /// Files write at once and never reconnect.
    var statistics: OutputStatistics { OutputStatistics() }
}

extension RTMPOutput {
    // Reconnects: RTMPOutput has no reconnect loop yet (issue 5 adds one); it reports them here.
    var statistics: OutputStatistics {
        OutputStatistics(queuedPackets: queuedPackets, droppedFrames: droppedFrames, reconnects: 0)
    }
}
