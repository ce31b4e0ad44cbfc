internal import CV4L2
import Media

/// Asking a device what it offers: formats, their sizes and their frame intervals. Each
/// enumeration counts an index up until the driver answers EINVAL (Linux media API,
/// "ioctl VIDIOC_ENUM_FMT").
extension V4L2Device {
    /// The FourCC V4L2 also uses for Motion JPEG besides `MJPG`.
    public static let jpegFourCC: UInt32 = 0x4745_504A  // "JPEG" little-endian

    /// Maps a device FourCC to Camcast's pixel format (`JPEG` is Motion JPEG too).
    public static func pixelFormat(fourCC: UInt32) -> PixelFormat? {
        fourCC == jpegFourCC ? .mjpeg : PixelFormat(fourCC: fourCC)
    }

    /// "YUYV"; bit 31 (`V4L2_PIX_FMT_FLAG_BE`) marks a big-endian variant and is written "-BE",
    /// as v4l2-ctl writes it ("Y16 -BE").
    public static func fourCCString(_ code: UInt32) -> String {
        let letters = String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: (code & 0x7FFF_FFFF) >> ($0 * 8)) }, as: UTF8.self)
        return code & 0x8000_0000 != 0 ? letters + "-BE" : letters
    }

    /// Every format the node offers for `type`, except ones libv4l would emulate (none here: we
    /// speak to the kernel directly, but a flag set by a driver is still respected).
    public func formats(type: V4L2BufferType, withSizes: Bool = true) throws(SystemCallError) -> [(code: UInt32, info: V4L2FormatInfo)] {
        var result: [(UInt32, V4L2FormatInfo)] = []
        var index: UInt32 = 0
        while true {
            var description = v4l2_fmtdesc()
            description.index = index
            description.type = type.rawValue
            guard try enumerate("VIDIOC_ENUM_FMT", cv4l2_vidioc_enum_fmt(), &description) else { break }
            index += 1
            if description.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0 { continue }
            let code = description.pixelformat
            let sizes = withSizes ? try frameSizes(fourCC: code) : []
            result.append((code, V4L2FormatInfo(
                fourCC: Self.fourCCString(code), description: V4L2Capabilities.string(description.description),
                compressed: description.flags & UInt32(V4L2_FMT_FLAG_COMPRESSED) != 0,
                supported: Self.pixelFormat(fourCC: code) != nil, sizes: sizes)))
        }
        return result
    }

    /// The sizes `fourCC` comes in, each with its frame intervals (`VIDIOC_ENUM_FRAMESIZES`).
    public func frameSizes(fourCC: UInt32) throws(SystemCallError) -> [V4L2FrameSizeInfo] {
        var sizes: [V4L2FrameSizeInfo] = []
        var index: UInt32 = 0
        while true {
            var entry = v4l2_frmsizeenum()
            entry.index = index
            entry.pixel_format = fourCC
            guard try enumerate("VIDIOC_ENUM_FRAMESIZES", cv4l2_vidioc_enum_framesizes(), &entry) else { break }
            index += 1
            guard let kind = V4L2RangeKind(rawType: entry.type) else { continue }
            if kind == .discrete {
                let w = Int(entry.discrete.width), h = Int(entry.discrete.height)
                sizes.append(V4L2FrameSizeInfo(
                    kind: .discrete, width: w, height: h,
                    frameIntervals: try frameIntervals(fourCC: fourCC, width: w, height: h)))
            } else {
                // A range is reported once, as entry 0.
                let s = entry.stepwise
                sizes.append(V4L2FrameSizeInfo(
                    kind: kind, width: Int(s.min_width), height: Int(s.min_height),
                    maxWidth: Int(s.max_width), maxHeight: Int(s.max_height),
                    stepWidth: Int(s.step_width), stepHeight: Int(s.step_height),
                    frameIntervals: try frameIntervals(fourCC: fourCC, width: Int(s.max_width), height: Int(s.max_height))))
                break
            }
        }
        return sizes
    }

    /// The frame intervals `fourCC` offers at `width`x`height` (`VIDIOC_ENUM_FRAMEINTERVALS`).
    public func frameIntervals(fourCC: UInt32, width: Int, height: Int) throws(SystemCallError) -> [V4L2FrameIntervalInfo] {
        var intervals: [V4L2FrameIntervalInfo] = []
        var index: UInt32 = 0
        while true {
            var entry = v4l2_frmivalenum()
            entry.index = index
            entry.pixel_format = fourCC
            entry.width = UInt32(width)
            entry.height = UInt32(height)
            guard try enumerate("VIDIOC_ENUM_FRAMEINTERVALS", cv4l2_vidioc_enum_frameintervals(), &entry) else { break }
            index += 1
            guard let kind = V4L2RangeKind(rawType: entry.type) else { continue }
            if kind == .discrete {
                intervals.append(V4L2FrameIntervalInfo(
                    kind: .discrete, numerator: Int(entry.discrete.numerator), denominator: Int(entry.discrete.denominator)))
            } else {
                let s = entry.stepwise
                intervals.append(V4L2FrameIntervalInfo(
                    kind: kind, numerator: Int(s.min.numerator), denominator: Int(s.min.denominator),
                    longestNumerator: Int(s.max.numerator), longestDenominator: Int(s.max.denominator)))
                break
            }
        }
        return intervals
    }

    /// One enumeration step: true if entry `index` exists, false at the end of the list (EINVAL).
    /// Some drivers answer ENOTTY for size/interval enumeration they do not implement: also the end.
    private func enumerate<Entry>(_ name: String, _ request: UInt, _ entry: inout Entry) throws(SystemCallError) -> Bool {
        do throws(SystemCallError) {
            try ioctl(name, request, &entry)
            return true
        } catch {
            if error.errno == EINVAL || error.errno == ENOTTY { return false }
            throw error
        }
    }
}
