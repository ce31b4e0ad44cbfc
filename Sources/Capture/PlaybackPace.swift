/// How a file source hands out frames.
public enum PlaybackPace: String, Sendable, CaseIterable, Hashable {
    /// One frame per frame interval on CLOCK_MONOTONIC, as a camera would; frames whose slot has
    /// passed are skipped when the consumer falls behind.
    case realtime
    /// As fast as the consumer takes them, none skipped: the encoder is the bottleneck (benchmarks).
    /// Timestamps are still one frame interval apart, so the stream's timeline stays sane.
    case fast
}
