import Media
import Synchronization

/// What the capture thread reports while it runs: counters any thread may read, and the state.
final class V4L2CaptureCounters: Sendable {
    let skipped = Atomic<Int>(0)
    let driverDropped = Atomic<Int>(0)
    let errorBuffers = Atomic<Int>(0)
    let corruptFrames = Atomic<Int>(0)
    let placeholders = Atomic<Int>(0)
    let reopens = Atomic<Int>(0)
    /// Frames dropped because the input reported no signal (a capture card's black or noise).
    let withoutSignal = Atomic<Int>(0)
    let delivered = Atomic<Int>(0)
    /// Live frames delivered straight from the driver's buffer, without a copy.
    let borrowed = Atomic<Int>(0)
    /// Frames copied out of the driver's buffer: the last good one, once per fault.
    let copied = Atomic<Int>(0)
    let state = Lock<V4L2CaptureState>(.stopped)
    /// What the device granted, once it was first opened (later than start when it came late).
    let format = Lock<V4L2CaptureFormat?>(nil)
    /// Cleared by `stop()`; the capture loop runs while it is set.
    let running = Atomic<Bool>(false)
}
