import Media
import Synchronization

/// The counters and gauges of the stages before the outputs: capture, encoder, sound. Written
/// by the capture and audio threads (atomics only), read by whoever reports.
public final class PipelineMeter: Sendable {
    /// Frames the source handed on (live and placeholder).
    public let framesCaptured = Atomic<Int>(0)
    /// Of those, placeholder frames (the slate while the camera is gone).
    public let placeholderFrames = Atomic<Int>(0)
    /// Pictures encoded; READY=1 awaits the first (`firstStep`).
    public let framesEncoded = AwaitableCount()
    public let keyframes = Atomic<Int>(0)
    public let encodedBytes = Atomic<Int>(0)
    /// Time spent in the encoder, summed (ns).
    public let encodeNanoseconds = Atomic<Int>(0)
    /// The bitrate adaptive bitrate runs the encoder at (kbit/s); 0 while it is off.
    public let adaptedKbps = Atomic<Int>(0)
    /// The configured bitrate (kbit/s); a reload may change it.
    public let configuredKbps = Atomic<Int>(0)
    /// Frames the source skipped because the encoder did not keep up, and the driver's drops.
    public let skippedAtSource = Atomic<Int>(0)
    public let droppedByDriver = Atomic<Int>(0)
    /// Pictures a live source handed on while the encoder stage's queue was full: dropped there,
    /// so that the source keeps its cadence.
    public let droppedAtEncoder = Atomic<Int>(0)
    public let audioFrames = Atomic<Int>(0)
    public let audioXruns = Atomic<Int>(0)
    /// Why the camera or the microphone is not live; nil while it is (or there is none).
    public let cameraTrouble = Lock<String?>(nil)
    public let audioTrouble = Lock<String?>(nil)
    /// Set while the source and the encoder rest between schedule windows (`idle: close`): when
    /// they start again, as the operator reads it ("until Mon 07:30 (07:30)"); nil while they run.
    public let sourceResting = Lock<String?>(nil)
    /// Whether there is an audio track at all.
    public let hasAudio = Atomic<Bool>(false)

    public init() {}
}
