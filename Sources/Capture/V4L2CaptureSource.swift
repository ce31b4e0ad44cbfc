import Logging
import Media
import V4L2

/// Frames from a V4L2 camera, on a dedicated capture thread, that keep coming when the camera does
/// not: while it is unplugged or failing, placeholder frames (the last good frame, or an "offline"
/// slate) go out at the frame rate in the same size and format, and the device is reopened every
/// `reopenIntervalSeconds` until live frames resume. The encoder downstream never notices.
///
/// Frames carry the kernel's capture timestamp (CLOCK_MONOTONIC). Uncompressed ones are delivered
/// without a copy, borrowed from the driver's mmap buffer (`VideoFrame.isBorrowed`): as every
/// source's, they are valid only until `deliver` returns, and the buffer goes back to the driver
/// after that. MJPEG is decoded to NV12 into memory of its own. A consumer that falls behind holds
/// the capture thread, so the driver runs out of queued buffers and drops frames itself: that
/// shows in `driverDroppedFrames`.
public final class V4L2CaptureSource: FrameSource {
    public let settings: V4L2SourceSettings
    private let logger: Logger
    private let counters = V4L2CaptureCounters()
    private let lifecycle = Lock<Lifecycle>(.idle)

    /// How the capture thread tells `start` whether the device opened (a class: the closure
    /// must share it, and a Mutex alone cannot be captured).
    private final class StartOutcome: Sendable {
        let result = Lock<Result<Void, CaptureError>?>(nil)
    }

    private enum Lifecycle {
        case idle
        case starting
        case running(thread: DedicatedThread, wake: WakeEvent)
    }

    /// How far into the past a placeholder may be stamped when the loss of the camera is noticed
    /// late (`PlaceholderSlots`): whatever orders the pictures with other tracks must wait at
    /// least that long for them.
    public static let placeholderBackfillMilliseconds = Int64(PlaceholderSlots.backfillLimitNanoseconds / 1_000_000)

    /// Checks the settings; nothing is opened until `start`.
    public init(settings: V4L2SourceSettings, logger: Logger) throws(CaptureError) {
        try settings.validate()
        self.settings = settings
        self.logger = logger
    }

    /// What the driver granted, once the device opened: nil while a camera absent at start is
    /// awaited (the slate goes out meanwhile).
    public var format: V4L2CaptureFormat? { counters.format.withLock { $0 } }
    public var state: V4L2CaptureState { counters.state.withLock { $0 } }
    /// Frames captured but not delivered because their timestamp did not advance, plus placeholder
    /// slots skipped because the consumer was late.
    public var skippedFrames: Int { counters.skipped.load(ordering: .relaxed) }
    /// Frames the driver dropped (gaps in its sequence numbers): no free buffer, or the hardware.
    public var driverDroppedFrames: Int { counters.driverDropped.load(ordering: .relaxed) }
    /// Buffers the driver flagged V4L2_BUF_FLAG_ERROR (or returned short), dropped.
    public var errorBuffers: Int { counters.errorBuffers.load(ordering: .relaxed) }
    /// MJPEG frames that did not decode, dropped.
    public var corruptFrames: Int { counters.corruptFrames.load(ordering: .relaxed) }
    /// Corrupt MJPEG frames and error-flagged buffers, for the status and stop lines.
    public var badFrames: Int { corruptFrames + errorBuffers }
    public var placeholderFrames: Int { counters.placeholders.load(ordering: .relaxed) }
    /// Recoveries: the device was lost or failed, then reopened and delivered a frame again.
    public var reopenCount: Int { counters.reopens.load(ordering: .relaxed) }
    /// Frames the device delivered while its input reported no signal, dropped for placeholders.
    public var framesWithoutSignal: Int { counters.withoutSignal.load(ordering: .relaxed) }
    /// Frames delivered, live and placeholder.
    public var deliveredFrames: Int { counters.delivered.load(ordering: .relaxed) }
    /// Live frames delivered straight from the driver's buffer, without a copy (every live frame,
    /// unless the device sends MJPEG).
    public var borrowedFrames: Int { counters.borrowed.load(ordering: .relaxed) }
    /// Frames copied out of the driver's buffer: only the last good frame, once per fault, kept
    /// as the placeholder before the device is closed.
    public var copiedFrames: Int { counters.copied.load(ordering: .relaxed) }

    /// Opens and negotiates the device and starts capturing; returns once streaming (live frames,
    /// or the slate while a device that is not there yet is awaited), or throws (a `CaptureError`)
    /// if the path can never be a capture device (`CaptureError.isFinalAtStart`).
    public func start(deliver: @escaping @Sendable (VideoFrame) -> Void) throws {
        try lifecycle.withLock { (state) throws(CaptureError) in
            guard case .idle = state else { throw .alreadyStarted }
            state = .starting
        }
        do {
            let (thread, wake) = try launch(deliver: deliver)
            lifecycle.withLock { $0 = .running(thread: thread, wake: wake) }
        } catch {
            lifecycle.withLock { $0 = .idle }
            throw error
        }
    }

    /// Stops capturing, closes the device and waits for the capture thread to end.
    public func stop() {
        let running = lifecycle.withLock { state -> (DedicatedThread, WakeEvent)? in
            guard case .running(let thread, let wake) = state else { return nil }
            state = .idle
            return (thread, wake)
        }
        guard let (thread, wake) = running else { return }
        counters.running.store(false, ordering: .releasing)
        wake.signal()
        thread.join()
        counters.state.withLock { $0 = .stopped }
    }

    /// Starts the capture thread, which opens the device itself (the device then lives and dies on
    /// that one thread), and waits for it to report the outcome.
    private func launch(
        deliver: @escaping @Sendable (VideoFrame) -> Void
    ) throws(CaptureError) -> (DedicatedThread, WakeEvent) {
        let wake: WakeEvent
        let ready: WakeEvent
        do throws(SystemCallError) {
            wake = try WakeEvent()
            ready = try WakeEvent()
        } catch {
            throw .deviceFailed(path: settings.devicePath, call: error.call, errno: error.errno, message: error.message)
        }
        let outcome = StartOutcome()
        counters.running.store(true, ordering: .releasing)
        let thread: DedicatedThread
        do throws(ThreadStartError) {
            thread = try DedicatedThread(name: SourceThreadName.capture) { [settings, logger, counters] in
                let loop: V4L2CaptureLoop
                do throws(CaptureError) {
                    loop = try V4L2CaptureLoop(settings: settings, logger: logger, counters: counters, wake: wake, deliver: deliver)
                } catch {
                    outcome.result.withLock { $0 = .failure(error) }
                    ready.signal()
                    return
                }
                outcome.result.withLock { $0 = .success(()) }
                ready.signal()
                loop.run()
            }
        } catch {
            counters.running.store(false, ordering: .releasing)
            throw .threadStartFailed(errno: error.errno)
        }
        ready.wait()
        switch outcome.result.withLock({ $0 }) {
        case .success:
            return (thread, wake)
        case .failure(let error):
            thread.join()
            counters.running.store(false, ordering: .releasing)
            throw error
        case nil:
            thread.join()
            counters.running.store(false, ordering: .releasing)
            throw .threadStartFailed(errno: 0)
        }
    }
}
