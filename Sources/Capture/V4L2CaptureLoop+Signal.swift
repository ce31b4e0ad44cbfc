import Logging
import Media
import V4L2

/// Capture cards say when their input has no signal (`v4l2_input.status`), yet many go on
/// delivering frames: black, blue, or noise. Those are not the camera's picture, so while the input
/// reports a problem its frames are dropped and placeholders stand in, as for a failing device but
/// without closing it; live frames resume with the first frame after the signal is back. Webcams
/// (UVC) report nothing there; the check costs them two ioctls a second.
extension V4L2CaptureLoop {
    static let signalCheckIntervalNanoseconds: UInt64 = 1_000_000_000

    /// The input's problem ("no signal"), asked of the driver at most once a second.
    func inputProblem(of stream: V4L2Stream) -> String? {
        let now = MonotonicTime.now()
        if now >= nextSignalCheck {
            signalProblem = stream.device.inputProblem()
            nextSignalCheck = now.adding(nanoseconds: Self.signalCheckIntervalNanoseconds)
        }
        return signalProblem
    }

    /// Drops the frame in `buffer` (the caller re-queues it); the first such frame makes the
    /// last live one the placeholder and reports the camera as failing.
    func refuseFrame(of buffer: V4L2DequeuedBuffer, becauseOf problem: String, on stream: V4L2Stream) {
        // The driver's count moves on with the refused frames: no gap for the next live one.
        _ = tracker.observe(buffer.sequence)
        bridgedSlots = 0
        counters.withoutSignal.add(1, ordering: .relaxed)
        if fault == nil { keepLastGoodFrame(requeueingTo: stream) }
        record(.failing(problem), now: .now())
    }
}
