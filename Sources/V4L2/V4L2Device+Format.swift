#if canImport(Glibc)
import Glibc
#endif
internal import CV4L2
import Media

/// Setting format and frame rate, on a capture or an output queue: ask with `VIDIOC_S_FMT` /
/// `VIDIOC_S_PARM`, get back what the driver granted. Deciding whether the grant will do is the
/// caller's business.
extension V4L2Device {
    /// Asks for `fourCC` at `width`x`height`, progressive (`V4L2_FIELD_NONE`), one plane; returns
    /// what the driver granted.
    public func setFormat(type: V4L2BufferType, fourCC: UInt32, width: Int, height: Int) throws(SystemCallError) -> V4L2GrantedFormat {
        var request = v4l2_format()
        request.type = type.rawValue
        let fieldNone: UInt32 = 1  // V4L2_FIELD_NONE: progressive frames, never interlaced fields
        if type.isMultiPlanar {
            request.fmt.pix_mp.width = UInt32(width)
            request.fmt.pix_mp.height = UInt32(height)
            request.fmt.pix_mp.pixelformat = fourCC
            request.fmt.pix_mp.field = fieldNone
            request.fmt.pix_mp.num_planes = 1
        } else {
            request.fmt.pix.width = UInt32(width)
            request.fmt.pix.height = UInt32(height)
            request.fmt.pix.pixelformat = fourCC
            request.fmt.pix.field = fieldNone
        }
        try ioctl("VIDIOC_S_FMT", cv4l2_vidioc_s_fmt(), &request)
        return Self.granted(request, type: type)
    }

    /// The format the `type` queue is set to now (`VIDIOC_G_FMT`): an output user reads back what
    /// a mem2mem driver derived on its other queue (the coded buffer size, say).
    public func format(type: V4L2BufferType) throws(SystemCallError) -> V4L2GrantedFormat {
        var request = v4l2_format()
        request.type = type.rawValue
        try ioctl("VIDIOC_G_FMT", cv4l2_vidioc_g_fmt(), &request)
        return Self.granted(request, type: type)
    }

    private static func granted(_ format: v4l2_format, type: V4L2BufferType) -> V4L2GrantedFormat {
        if type.isMultiPlanar {
            let mp = format.fmt.pix_mp
            return V4L2GrantedFormat(
                fourCC: mp.pixelformat, width: Int(mp.width), height: Int(mp.height),
                bytesPerLine: Int(mp.plane_fmt.0.bytesperline), sizeImage: Int(mp.plane_fmt.0.sizeimage),
                planeCount: Int(mp.num_planes))
        }
        let pix = format.fmt.pix
        return V4L2GrantedFormat(
            fourCC: pix.pixelformat, width: Int(pix.width), height: Int(pix.height),
            bytesPerLine: Int(pix.bytesperline), sizeImage: Int(pix.sizeimage), planeCount: 1)
    }

    /// `VIDIOC_S_PARM` with `timeperframe` = 1 / `rate`; returns the rate granted, or nil when the
    /// driver cannot set one (no S_PARM at all, or no `V4L2_CAP_TIMEPERFRAME`): it runs at its own.
    public func setFrameRate(type: V4L2BufferType, _ rate: FrameRate) throws(SystemCallError) -> FrameRate? {
        var parm = v4l2_streamparm()
        parm.type = type.rawValue
        let asked = v4l2_fract(numerator: UInt32(rate.denominator), denominator: UInt32(rate.numerator))
        // An output queue (a mem2mem encoder's raw frames) takes its rate in the union's output
        // member; the two members share a layout, but the API names them apart.
        if type.isOutput { parm.parm.output.timeperframe = asked } else { parm.parm.capture.timeperframe = asked }
        do throws(SystemCallError) {
            try ioctl("VIDIOC_S_PARM", cv4l2_vidioc_s_parm(), &parm)
        } catch {
            guard error.errno == EINVAL || error.errno == ENOTTY else { throw error }
            return nil
        }
        let (capability, interval) = type.isOutput
            ? (parm.parm.output.capability, parm.parm.output.timeperframe)
            : (parm.parm.capture.capability, parm.parm.capture.timeperframe)
        guard capability & UInt32(V4L2_CAP_TIMEPERFRAME) != 0, interval.numerator > 0, interval.denominator > 0 else { return nil }
        return FrameRate(numerator: Int(interval.denominator), denominator: Int(interval.numerator)).reduced
    }
}
