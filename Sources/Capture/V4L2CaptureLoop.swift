import Logging
import Media
import V4L2

/// The capture thread's work: wait in poll, dequeue, deliver the frame from the buffer it arrived
/// in, re-queue; bridge a silent device with placeholder frames; and when the device fails (or
/// stays silent for `pollTimeoutSeconds`), close it, keep the stream alive with placeholders and
/// reopen it every `reopenIntervalSeconds`. Lives on the capture thread only (it owns the device),
/// so not Sendable.
///
/// The buffer of the last live frame stays dequeued until the next frame is delivered (the driver
/// fills the others meanwhile), so that when the device fails that frame can still be copied, once,
/// to serve as the placeholder: no frame is copied just in case.
final class V4L2CaptureLoop {
    /// What the device granted; nil until it has been opened once (a camera absent at start).
    var format: V4L2CaptureFormat?
    let settings: V4L2SourceSettings
    let logger: Logger
    let counters: V4L2CaptureCounters
    let wake: WakeEvent
    let deliver: @Sendable (VideoFrame) -> Void
    /// What the device sends; a reopened device must send exactly this again. Nil until the device
    /// was first opened: whatever it grants then is what the stream runs with.
    var deviceLayout: V4L2FrameLayout?
    /// What is delivered (NV12 for MJPEG, else the device's layout); placeholders use it too. Until
    /// the device was first opened, the slate's: NV12 at the configured size.
    var outputLayout: V4L2FrameLayout
    var frameInterval: UInt64
    var mjpeg: MJPEGFrameDecoding?

    var stream: V4L2Stream?
    var tracker = V4L2SequenceTracker()
    /// The buffer behind the last live frame delivered, kept from the driver (see above).
    var held: HeldBuffer?
    /// The last good frame, with bytes of its own, once it is no longer in a held buffer: copied
    /// from it on a fault, or a decoded MJPEG frame. Nil while `held` has the latest one.
    var lastGoodFrame: VideoFrame?
    var lastTimestamp: MonotonicTime?
    var nextSequence: UInt64 = 0
    var fault: V4L2DeviceFault?
    var faultSince = MonotonicTime(nanoseconds: 0)
    var nextReopen = MonotonicTime(nanoseconds: 0)
    /// The frame clock placeholders go out on while the device is away or silent.
    var placeholders: PlaceholderSlots
    var nextPlaceholder: MonotonicTime { placeholders.next }
    /// When the open device last gave us a buffer, or was opened: its silence counts from here.
    var lastHeardFrom = MonotonicTime.now()
    /// Frame slots placeholders filled (or skipped) since the open device's last buffer; the
    /// sequence gap the next buffer shows over them is not a loss.
    var bridgedSlots = 0
    /// What the input said about its signal when last asked, and when to ask again.
    var signalProblem: String?
    var nextSignalCheck = MonotonicTime(nanoseconds: 0)
    var warnedAboutClock = false
    var skipNotice = SkippedSlotsNotice()
    /// The slate, kept while the layout stays the same.
    var slate: VideoFrame?

    /// Opens and starts the device. A device that is not there yet (or cannot be opened for now) is
    /// no reason to fail: the loop starts on the slate and tries it every `reopenIntervalSeconds`,
    /// exactly as for a device lost mid-run. Throws only what no retry can mend (`isFinalAtStart`).
    init(
        settings: V4L2SourceSettings, logger: Logger, counters: V4L2CaptureCounters, wake: WakeEvent,
        deliver: @escaping @Sendable (VideoFrame) -> Void
    ) throws(CaptureError) {
        self.settings = settings
        self.logger = logger
        self.counters = counters
        self.wake = wake
        self.deliver = deliver
        outputLayout = Self.slateLayout(for: settings.size)
        frameInterval = settings.frameRate.frameIntervalNanoseconds
        placeholders = PlaceholderSlots(after: nil, now: .now(), frameInterval: frameInterval)
        let opened: V4L2Stream
        do {
            opened = try V4L2Stream(settings: settings, expected: nil, logger: logger)
        } catch where !error.isFinalAtStart {
            waitForDevice(after: error)
            return
        }
        try adopt(opened)
    }
    /// A frame of our own bytes in the delivered layout: a decoded MJPEG frame, the kept last good
    /// frame, the offline slate.
    func outputFrame(bytes: [UInt8], timestamp: MonotonicTime, sequence: UInt64) -> VideoFrame {
        VideoFrame(
            width: outputLayout.width, height: outputLayout.height, pixelFormat: outputLayout.pixelFormat,
            planes: outputLayout.planes, bytes: bytes, timestamp: timestamp, sequence: sequence)
    }

    /// A poll timeout that wakes at `deadline` or just after it (never before: the work it waits
    /// for would not be due yet); 0 once it has passed, at most a minute.
    static func pollMilliseconds(from now: MonotonicTime, until deadline: MonotonicTime) -> Int32 {
        guard deadline > now else { return 0 }
        return Int32(min((deadline.nanoseconds(since: now) + 999_999) / 1_000_000, 60_000))
    }

    /// A dequeued buffer whose frame was delivered, and where that frame's bytes lie in its mapping.
    struct HeldBuffer {
        var index: Int
        var bytes: UnsafeRawBufferPointer
    }

    func run() {
        while counters.running.load(ordering: .acquiring) {
            if let stream {
                captureLive(from: stream)
            } else {
                ridePlaceholder()
            }
        }
        if let due = skipNotice.flush() { logSkipped(due) }
        held = nil
        stream = nil
    }
}
