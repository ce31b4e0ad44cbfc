#if canImport(Glibc)
import Glibc
#endif
import Media
import Synchronization

/// The built-in moving test pattern, paced in real time on its own thread: what the daemon
/// streams where no camera exists.
///
/// Frames are stamped with the CLOCK_MONOTONIC instant they were due, exactly one frame interval
/// apart, as a camera stamps them with its capture time. If the consumer falls behind by more than a
/// frame, the source skips the frames it missed (counted in `skippedFrames`) rather than sending a
/// burst, so timestamps keep following the clock.
public final class TestPatternSource: FrameSource {
    public let size: VideoSize
    public let frameRate: FrameRate
    private let renderer: TestPatternRenderer
    private let thread = SourceThread(name: SourceThreadName.capture, alreadyStarted: CaptureError.alreadyStarted, threadStartFailed: CaptureError.threadStartFailed(errno:))
    private let skipped = Atomic<Int>(0)

    public init(size: VideoSize, frameRate: FrameRate) throws(CaptureError) {
        if let reason = size.unsupportedReason(requiringEven: true) {
            throw .invalidSize(width: size.width, height: size.height, reason: reason)
        }
        guard frameRate.isSupported else {
            throw .invalidFrameRate(frameRate.description)
        }
        self.size = size
        self.frameRate = frameRate
        renderer = TestPatternRenderer(width: size.width, height: size.height)
    }

    public var skippedFrames: Int { skipped.load(ordering: .relaxed) }

    public func start(deliver: @escaping @Sendable (VideoFrame) -> Void) throws {
        try thread.start { [self] in produce(deliver) }
    }

    public func stop() {
        thread.stop()
    }

    private func produce(_ deliver: @Sendable (VideoFrame) -> Void) {
        let interval = frameRate.frameIntervalNanoseconds
        let origin = MonotonicTime.now()
        var index: UInt64 = 0
        // One picture buffer for every frame: `deliver` is synchronous and the encoder copies the
        // picture, so the buffer is uniquely ours again when it returns and the next render reuses
        // its storage instead of allocating and zeroing a new frame.
        var bytes = [UInt8](repeating: 0, count: renderer.layout.byteCount)
        while thread.isRunning {
            let due = origin.adding(nanoseconds: index * interval)
            guard thread.wait(until: due) else { break }
            renderer.render(frame: index, into: &bytes)
            deliver(
                VideoFrame(
                    width: size.width, height: size.height, pixelFormat: .i420, planes: renderer.layout.planes,
                    bytes: bytes, timestamp: due, sequence: index))
            // Catch up with the clock: frames whose slot has already passed are skipped, not burst.
            let now = MonotonicTime.now()
            var next = index + 1
            let behind = now.nanoseconds(since: origin)
            if behind > 0 {
                let current = UInt64(behind) / interval
                if current > next {
                    skipped.add(Int(current - next), ordering: .relaxed)
                    next = current
                }
            }
            index = next
        }
    }

}
