import Logging
import Media
import V4L2

/// A device negotiated and streaming: the device, its mapped buffers and the granted format.
/// Dropping it stops streaming, unmaps the buffers and closes the device, in that order.
final class V4L2Stream {
    let device: V4L2Device
    let pool: V4L2BufferPool
    /// The layout of the device's frames (MJPEG: compressed, no planes).
    let layout: V4L2FrameLayout
    let frameRate: FrameRate

    /// Opens `settings.devicePath`, negotiates, maps buffers and starts streaming. `expected`, on a
    /// reopen, is what the running stream was configured with: anything else is rejected, because
    /// the encoder downstream was set up once for it.
    init(settings: V4L2SourceSettings, expected: V4L2FrameLayout?, logger: Logger) throws(CaptureError) {
        let path = settings.devicePath
        let device: V4L2Device
        do {
            device = try V4L2Device(path: path)
        } catch {
            throw Self.captureError(error, path: path)
        }
        let caps = device.capabilities
        guard caps.canCapture else {
            throw .notACaptureDevice(path: path, reason: "capabilities are \(caps.names.joined(separator: ", "))")
        }
        guard caps.canStream else { throw .notACaptureDevice(path: path, reason: "no streaming I/O") }
        let type = caps.bufferType

        let negotiated: (layout: V4L2FrameLayout, rate: FrameRate)
        let pool: V4L2BufferPool
        do {
            let requested = try Self.chooseFormat(device: device, type: type, settings: settings, expected: expected)
            negotiated = try Self.negotiate(device: device, type: type, format: requested, settings: settings, logger: logger)
            if let expected, expected != negotiated.layout {
                throw CaptureError.formatRejected(
                    path: path,
                    reason: "the driver now grants \(negotiated.layout.pixelFormat.rawValue) \(negotiated.layout.width)x\(negotiated.layout.height), "
                        + "the stream runs \(expected.pixelFormat.rawValue) \(expected.width)x\(expected.height)")
            }
            pool = try V4L2BufferPool(device: device, type: type, count: settings.bufferCount)
            if pool.count != settings.bufferCount {
                logger.debug("driver granted a different buffer count", metadata: ["asked": "\(settings.bufferCount)", "granted": "\(pool.count)"])
            }
            for index in 0..<pool.count { try pool.queue(index) }
            try device.streamOn(type)
        } catch let error as SystemCallError {
            throw Self.captureError(error, path: path)
        } catch let error as CaptureError {
            throw error
        } catch {
            throw .formatRejected(path: path, reason: "\(error)")
        }
        self.device = device
        self.pool = pool
        self.layout = negotiated.layout
        self.frameRate = negotiated.rate
    }

    deinit {
        // Best effort: after an unplug this fails with ENODEV, and closing the fd stops streaming anyway.
        try? device.streamOff(pool.type)
    }

    /// ENOENT/ENODEV/ENXIO mean the device is gone; anything else means it is there but failing.
    static func captureError(_ error: SystemCallError, path: String) -> CaptureError {
        if error.meansDeviceGone { return .deviceNotFound(path: path) }
        return .deviceFailed(path: path, call: error.call, errno: error.errno, message: error.message)
    }
}
