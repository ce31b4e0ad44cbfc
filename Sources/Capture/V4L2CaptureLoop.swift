#if canImport(Glibc)
import Glibc
#endif
import Logging
import Media

/// The capture thread's work: wait in poll, dequeue, copy, re-queue, deliver; and when the device
/// fails, close it, keep the stream alive with placeholder frames and reopen it every
/// `reopenIntervalSeconds`. Lives on the capture thread only (it owns the device), so not Sendable.
final class V4L2CaptureLoop {
    let format: V4L2CaptureFormat
    let settings: V4L2SourceSettings
    let logger: Logger
    let counters: V4L2CaptureCounters
    let wake: WakeEvent
    let deliver: @Sendable (VideoFrame) -> Void
    /// What the device sends; a reopened device must send exactly this again.
    let deviceLayout: V4L2FrameLayout
    /// What is delivered (I420 for MJPEG, else the device's layout); placeholders use it too.
    let outputLayout: V4L2FrameLayout
    let frameInterval: UInt64
    let decoder: MJPEGDecoder?

    var stream: V4L2Stream?
    var tracker = V4L2SequenceTracker()
    var lastFrame: VideoFrame?
    var lastTimestamp: MonotonicTime?
    var nextSequence: UInt64 = 0
    var fault: V4L2DeviceFault?
    var faultSince = MonotonicTime(nanoseconds: 0)
    var nextReopen = MonotonicTime(nanoseconds: 0)
    var nextPlaceholder = MonotonicTime(nanoseconds: 0)
    var warnedAboutClock = false

    /// Opens and starts the device; throws what makes it unusable at start.
    init(
        settings: V4L2SourceSettings, logger: Logger, counters: V4L2CaptureCounters, wake: WakeEvent,
        deliver: @escaping @Sendable (VideoFrame) -> Void
    ) throws(CaptureError) {
        let stream = try V4L2Stream(settings: settings, expected: nil, logger: logger)
        let device = stream.layout
        if device.pixelFormat == .mjpeg {
            guard let decoder = MJPEGDecoder() else {
                throw .formatRejected(path: settings.devicePath, reason: "could not create a JPEG decompressor")
            }
            self.decoder = decoder
            outputLayout = V4L2FrameLayout(
                pixelFormat: .i420, width: device.width, height: device.height, bytesPerLine: device.width, sizeImage: 0)!
        } else {
            decoder = nil
            outputLayout = device
        }
        self.settings = settings
        self.logger = logger
        self.counters = counters
        self.wake = wake
        self.deliver = deliver
        self.stream = stream
        deviceLayout = device
        frameInterval = stream.frameRate.frameIntervalNanoseconds
        format = V4L2CaptureFormat(
            devicePixelFormat: device.pixelFormat, pixelFormat: outputLayout.pixelFormat,
            size: VideoSize(width: device.width, height: device.height), frameRate: stream.frameRate)
        counters.state.withLock { $0 = .live }
        logger.info("capture started", metadata: [
            "device": "\(settings.devicePath)", "driver": "\(stream.device.capabilities.driver)",
            "format": "\(format)", "buffers": "\(stream.pool.count)",
        ])
    }

    func run() {
        while counters.running.load(ordering: .acquiring) {
            if let stream {
                captureLive(from: stream)
            } else {
                ridePlaceholder()
            }
        }
        stream = nil
    }
}
