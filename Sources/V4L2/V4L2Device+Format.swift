#if canImport(Glibc)
import Glibc
#endif
internal import CV4L2
import Media

/// Setting format and frame rate: ask with `VIDIOC_S_FMT` / `VIDIOC_S_PARM`, get back what the
/// driver granted. Deciding whether the grant will do is the caller's business.
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
        if type.isMultiPlanar {
            let mp = request.fmt.pix_mp
            return V4L2GrantedFormat(
                fourCC: mp.pixelformat, width: Int(mp.width), height: Int(mp.height),
                bytesPerLine: Int(mp.plane_fmt.0.bytesperline), sizeImage: Int(mp.plane_fmt.0.sizeimage),
                planeCount: Int(mp.num_planes))
        }
        let pix = request.fmt.pix
        return V4L2GrantedFormat(
            fourCC: pix.pixelformat, width: Int(pix.width), height: Int(pix.height),
            bytesPerLine: Int(pix.bytesperline), sizeImage: Int(pix.sizeimage), planeCount: 1)
    }

    /// `VIDIOC_S_PARM` with `timeperframe` = 1 / `rate`; returns the rate granted, or nil when the
    /// driver cannot set one (no S_PARM at all, or no `V4L2_CAP_TIMEPERFRAME`): it runs at its own.
    public func setFrameRate(type: V4L2BufferType, _ rate: FrameRate) throws(SystemCallError) -> FrameRate? {
        var parm = v4l2_streamparm()
        parm.type = type.rawValue
        parm.parm.capture.timeperframe.numerator = UInt32(rate.denominator)
        parm.parm.capture.timeperframe.denominator = UInt32(rate.numerator)
        do throws(SystemCallError) {
            try ioctl("VIDIOC_S_PARM", cv4l2_vidioc_s_parm(), &parm)
        } catch {
            guard error.errno == EINVAL || error.errno == ENOTTY else { throw error }
            return nil
        }
        let capture = parm.parm.capture
        guard capture.capability & UInt32(V4L2_CAP_TIMEPERFRAME) != 0,
            capture.timeperframe.numerator > 0, capture.timeperframe.denominator > 0
        else { return nil }
        return FrameRate(numerator: Int(capture.timeperframe.denominator), denominator: Int(capture.timeperframe.numerator)).reduced
    }
}
