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
    /// A live source's pictures dropped at the encoder stage's full queue (it does not wait for it;
    /// a placeholder does, and is never dropped there).
    var droppedAtEncoder = 0
    /// Frames the camera's driver dropped before the source saw them.
    var droppedByDriver = 0
    /// Frames that arrived broken at the source (bad MJPEG), dropped.
    var badFrames = 0
    /// Set while the source sends placeholders ("waiting for camera /dev/video0").
    var placeholderReason: String?
    /// Set while the source and the encoder rest between schedule windows ("until Mon 07:30 (07:30)").
    var sourceResting: String?
    var outputs: Int
    /// Packets waiting in the send queues of all outputs.
    var queuedPackets = 0
    /// The longest output queue, in seconds of media.
    var queueSeconds = 0.0
    /// Each output that is not up, in words: `rtmp-1 down 14 s, 6 attempts: connection refused`.
    var outputsDown: [String] = []
    /// Frames the outputs dropped (congestion), summed.
    var droppedFrames = 0
    /// Reconnections of all outputs, summed.
    var reconnects = 0
    /// Frames that left through the output that sent the fewest (sent to a socket, written to
    /// a file): "out" on the status line. The slowest output, so that a server dropping every
    /// frame shows as "out 0.0 fps", not as the encoder's rate (issue 14 #14).
    var framesSent = 0
    /// The bitrate adaptive bitrate runs the encoder at; nil while it is off.
    var adaptedKbps: Int?
    /// The sound's figures; nil without audio.
    var audio: Audio?

    struct Audio: Sendable, Equatable {
        /// AAC frames encoded since start.
        var frames: Int
        var xruns: Int
        /// Why the device is not live ("silenced: …", "reopening (…)"); nil while it is.
        var trouble: String?
    }
}
