#if canImport(Glibc)
import Glibc
#endif
internal import CV4L2
import Logging
import Media

/// Format, size and frame-rate negotiation: ask with VIDIOC_S_FMT / VIDIOC_S_PARM, then believe
/// only what the driver wrote back (Linux media API, "Data Formats": drivers adjust, not refuse).
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
        var request = v4l2_format()
        request.type = type.rawValue
        let fieldNone: UInt32 = 1  // V4L2_FIELD_NONE: progressive frames, never interlaced fields
        if type.isMultiPlanar {
            request.fmt.pix_mp.width = UInt32(settings.size.width)
            request.fmt.pix_mp.height = UInt32(settings.size.height)
            request.fmt.pix_mp.pixelformat = format.fourCC
            request.fmt.pix_mp.field = fieldNone
            request.fmt.pix_mp.num_planes = 1
        } else {
            request.fmt.pix.width = UInt32(settings.size.width)
            request.fmt.pix.height = UInt32(settings.size.height)
            request.fmt.pix.pixelformat = format.fourCC
            request.fmt.pix.field = fieldNone
        }
        try device.ioctl("VIDIOC_S_FMT", cv4l2_vidioc_s_fmt(), &request)

        let granted: (fourCC: UInt32, width: Int, height: Int, bytesPerLine: Int, sizeImage: Int)
        if type.isMultiPlanar {
            let mp = request.fmt.pix_mp
            guard mp.num_planes == 1 else {
                throw CaptureError.formatRejected(path: path, reason: "\(format.rawValue) comes in \(mp.num_planes) separate planes, which Camcast does not take")
            }
            granted = (mp.pixelformat, Int(mp.width), Int(mp.height), Int(mp.plane_fmt.0.bytesperline), Int(mp.plane_fmt.0.sizeimage))
        } else {
            let pix = request.fmt.pix
            granted = (pix.pixelformat, Int(pix.width), Int(pix.height), Int(pix.bytesperline), Int(pix.sizeimage))
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

    /// VIDIOC_S_PARM with `timeperframe` = 1 / rate. A driver without V4L2_CAP_TIMEPERFRAME (or
    /// without S_PARM at all) runs at its own rate; placeholders then use the configured one.
    private static func setFrameRate(
        device: V4L2Device, type: V4L2BufferType, settings: V4L2SourceSettings, logger: Logger
    ) throws -> FrameRate {
        var parm = v4l2_streamparm()
        parm.type = type.rawValue
        parm.parm.capture.timeperframe.numerator = UInt32(settings.frameRate.denominator)
        parm.parm.capture.timeperframe.denominator = UInt32(settings.frameRate.numerator)
        do throws(SystemCallError) {
            try device.ioctl("VIDIOC_S_PARM", cv4l2_vidioc_s_parm(), &parm)
        } catch {
            guard error.errno == EINVAL || error.errno == ENOTTY else { throw error }
            logger.notice("driver cannot set the frame rate", metadata: ["device": "\(device.path)", "asked": "\(settings.frameRate)"])
            return settings.frameRate
        }
        let capture = parm.parm.capture
        guard capture.capability & UInt32(V4L2_CAP_TIMEPERFRAME) != 0,
            capture.timeperframe.numerator > 0, capture.timeperframe.denominator > 0
        else {
            logger.notice("driver cannot set the frame rate", metadata: ["device": "\(device.path)", "asked": "\(settings.frameRate)"])
            return settings.frameRate
        }
        let granted = FrameRate(numerator: Int(capture.timeperframe.denominator), denominator: Int(capture.timeperframe.numerator)).reduced
        if granted.framesPerSecond != settings.frameRate.framesPerSecond {
            logger.notice("driver granted another frame rate", metadata: ["device": "\(device.path)", "asked": "\(settings.frameRate)", "granted": "\(granted)"])
        }
        return granted
    }
}
