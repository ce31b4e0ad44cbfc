import Logging
import Media
import V4L2

/// Format, size and frame-rate negotiation: ask the device (VIDIOC_S_FMT / VIDIOC_S_PARM), then
/// believe only what the driver wrote back (Linux media API, "Data Formats": drivers adjust, not
/// refuse), and refuse a grant the capture stream cannot use.
extension V4L2Stream {
    static func chooseFormat(
        device: V4L2Device, type: V4L2BufferType, settings: V4L2SourceSettings, expected: V4L2FrameLayout?
    ) throws -> PixelFormat {
        if let expected { return expected.pixelFormat }
        let listed = try device.formats(type: type, withSizes: false)
        var offered = listed.map(\.info)
        // Sizes only matter to auto, and only for formats Camcast takes: enumerating every size and
        // interval of every format costs hundreds of ioctls on drivers with many formats.
        if settings.pixelFormat == nil {
            for (index, entry) in listed.enumerated() where entry.info.supported {
                offered[index].sizes = try device.frameSizes(fourCC: entry.code)
            }
        }
        switch V4L2FormatChooser.choose(requested: settings.pixelFormat, size: settings.size, offered: offered) {
        case .success(let format):
            return format
        case .failure(.notOffered(let requested, let fourCCs)):
            throw CaptureError.formatNotSupported(path: device.path, requested: requested.rawValue, offered: fourCCs)
        case .failure(.nothingUsable(let fourCCs)):
            throw CaptureError.formatNotSupported(path: device.path, requested: "auto", offered: fourCCs)
        }
    }

    /// Sets format and rate; returns the granted layout and rate, logging where they differ from
    /// what was asked.
    static func negotiate(
        device: V4L2Device, type: V4L2BufferType, format: PixelFormat, settings: V4L2SourceSettings, logger: Logger
    ) throws -> (layout: V4L2FrameLayout, rate: FrameRate) {
        let path = device.path
        let granted = try device.setFormat(
            type: type, fourCC: format.fourCC, width: settings.size.width, height: settings.size.height)
        guard granted.planeCount == 1 else {
            throw CaptureError.formatRejected(path: path, reason: "\(format.rawValue) comes in \(granted.planeCount) separate planes, which Camcast does not take")
        }
        guard let grantedFormat = V4L2Device.pixelFormat(fourCC: granted.fourCC), grantedFormat == format else {
            throw CaptureError.formatRejected(
                path: path, reason: "asked for \(format.rawValue), the driver granted \(V4L2Device.fourCCString(granted.fourCC))")
        }
        let size = VideoSize(width: granted.width, height: granted.height)
        if size != settings.size {
            logger.notice("driver granted another size", metadata: ["device": "\(path)", "asked": "\(settings.size)", "granted": "\(size)"])
        }
        guard let layout = V4L2FrameLayout(
            pixelFormat: format, width: granted.width, height: granted.height,
            bytesPerLine: granted.bytesPerLine, sizeImage: granted.sizeImage)
        else {
            throw CaptureError.formatRejected(
                path: path, reason: "unusable \(format.rawValue) layout \(size), \(granted.bytesPerLine) bytes per line")
        }
        if format == .mjpeg && (size.width % 2 != 0 || size.height % 2 != 0) {
            throw CaptureError.formatRejected(path: path, reason: "MJPEG at odd size \(size) cannot become 4:2:0")
        }
        return (layout, try setFrameRate(device: device, type: type, settings: settings, logger: logger))
    }

    /// Asks for the configured rate. A driver without V4L2_CAP_TIMEPERFRAME (or
    /// without S_PARM at all) runs at its own rate; placeholders then use the configured one.
    private static func setFrameRate(
        device: V4L2Device, type: V4L2BufferType, settings: V4L2SourceSettings, logger: Logger
    ) throws -> FrameRate {
        guard let granted = try device.setFrameRate(type: type, settings.frameRate) else {
            logger.notice("driver cannot set the frame rate", metadata: ["device": "\(device.path)", "asked": "\(settings.frameRate)"])
            return settings.frameRate
        }
        if granted.framesPerSecond != settings.frameRate.framesPerSecond {
            logger.notice("driver granted another frame rate", metadata: ["device": "\(device.path)", "asked": "\(settings.frameRate)", "granted": "\(granted)"])
        }
        return granted
    }
}
