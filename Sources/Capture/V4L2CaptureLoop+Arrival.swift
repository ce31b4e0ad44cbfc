#if canImport(Glibc)
import Glibc
#endif
import Logging
import Media
import V4L2

/// A camera that is not there when the run starts is a camera lost before its first frame: the
/// slate goes out at the configured size, and the device is tried every `reopenIntervalSeconds`.
/// Whatever it grants once it opens becomes the stream's format (the conversion stage converts and
/// scales any frame to the stream's size, so the switch from slate to live frames needs nothing downstream).
extension V4L2CaptureLoop {
    /// The slate's layout before any device format is known: NV12, which the encoder takes as it
    /// is, at the configured size (rounded down to even, as 4:2:0 needs).
    static func slateLayout(for size: VideoSize) -> V4L2FrameLayout {
        let width = max(2, size.width & ~1), height = max(2, size.height & ~1)
        // Even and positive: the layout always exists.
        return V4L2FrameLayout(pixelFormat: .nv12, width: width, height: height, bytesPerLine: width, sizeImage: 0)!
    }

    /// Makes a freshly opened device the stream's: its layout (and MJPEG decoder), frame rate and
    /// format, which every later reopen must match.
    func adopt(_ opened: V4L2Stream) throws(CaptureError) {
        let device = opened.layout
        if device.pixelFormat == .mjpeg {
            guard let decoder = MJPEGFrameDecoding(
                width: device.width, height: device.height, keepsLastPicture: true, logger: logger,
                countCorrupt: { [counters] in counters.corruptFrames.add(1, ordering: .relaxed) })
            else {
                throw .formatRejected(path: settings.devicePath, reason: "could not create a JPEG decompressor")
            }
            mjpeg = decoder
            outputLayout = decoder.layout
        } else {
            mjpeg = nil
            outputLayout = device
        }
        deviceLayout = device
        frameInterval = opened.frameRate.frameIntervalNanoseconds
        let granted = V4L2CaptureFormat(
            devicePixelFormat: device.pixelFormat, pixelFormat: outputLayout.pixelFormat,
            size: VideoSize(width: device.width, height: device.height), frameRate: opened.frameRate)
        format = granted
        counters.format.withLock { $0 = granted }
        stream = opened
        if fault == nil { counters.state.withLock { $0 = .live } }
        logger.info("capture started", metadata: [
            "device": "\(settings.devicePath)", "driver": "\(opened.device.capabilities.driver)",
            "format": "\(granted)", "buffers": "\(opened.pool.count)",
        ])
    }

    /// The device could not be opened at start: the slate goes out from now on, and the device is
    /// tried again in `reopenIntervalSeconds`, as after a fault mid-run.
    func waitForDevice(after error: CaptureError) {
        let now = MonotonicTime.now()
        let waiting = V4L2DeviceFault(error)
        fault = waiting
        faultSince = now
        placeholders = PlaceholderSlots(after: nil, now: now, frameInterval: frameInterval)
        nextReopen = now.adding(nanoseconds: UInt64(settings.reopenIntervalSeconds * 1e9))
        counters.state.withLock { $0 = .placeholder(waiting) }
        log(waiting, message: "waiting for camera; sending the slate meanwhile")
    }
}

extension CaptureError {
    /// Whether a device that fails this way at start cannot be mended by waiting: a node that is
    /// not a V4L2 capture device, a format it does not offer, settings no device could meet. A
    /// missing node, a busy or failing one, may be fine a second later (a USB camera enumerating
    /// after the unit started, udev not done with its permissions).
    public var isFinalAtStart: Bool {
        switch self {
        case .notACaptureDevice, .formatNotSupported, .invalidSettings, .invalidSize, .invalidFrameRate,
            .alreadyStarted, .cannotRestart, .threadStartFailed:
            true
        case .deviceFailed(_, _, let errno, _):
            // ENOTTY: the node answers no V4L2 ioctl (a serial port, /dev/null): it never will.
            errno == ENOTTY
        case .deviceNotFound, .formatRejected:
            false
        }
    }
}
