import Synchronization

/// Figures for the status line, updated per frame from the capture thread.
final class PipelineCounters: Sendable {
    let framesCaptured = Atomic<Int>(0)
    let framesEncoded = Atomic<Int>(0)
    let keyframes = Atomic<Int>(0)
    let encodedBytes = Atomic<Int>(0)
    /// The bitrate adaptive bitrate runs the encoder at (kbit/s); 0 while it is off.
    let adaptedKbps = Atomic<Int>(0)
}
