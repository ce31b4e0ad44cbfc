import Media

/// The pipeline's figures at one moment; two of them make a status line.
struct PipelineSnapshot: Sendable, Equatable {
    var at: MonotonicTime
    var size: VideoSize
    var targetKbps: Int
    var framesCaptured: Int
    var framesEncoded: Int
    var encodedBytes: Int
    /// Frames the source skipped because the encoder did not keep up.
    var skippedAtSource: Int
    var outputs: Int
    /// Packets waiting in the send queues of all outputs.
    var queuedPackets = 0
    /// Frames the outputs dropped (congestion), summed.
    var droppedFrames = 0
    /// Reconnections of all outputs, summed.
    var reconnects = 0
}
