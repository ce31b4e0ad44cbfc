internal import CYUV
import Media

/// The libyuv calls that make the encoder's picture in a pool buffer.
extension ConversionStage {
    /// `frame` (whose planes are `p`) as a pool buffer at the stream's size; the caller gives it back.
    /// `planar`: I420 only, for an encoder that reads nothing else.
    func picture(of frame: VideoFrame, planes p: [SourcePlane], planar: Bool) throws(ConversionError) -> PictureBuffer {
        let sameSize = frame.width == size.width && frame.height == size.height
        if sameSize { return try atOwnSize(frame, planes: p, planar: planar) }
        // libyuv scales planar I420: I420 and YV12 are read where they lie, the rest is converted first.
        switch frame.pixelFormat {
        case .i420: return try scaled(frame, planes: p)
        case .yv12: return try scaled(frame, planes: [p[0], p[2], p[1]])
        default:
            let planar = takeBuffer(.i420, width: frame.width, height: frame.height)
            defer { giveBack(planar) }
            try toI420(frame.pixelFormat, p, into: planar)
            return try scaled(frame, planes: [planar.source(0), planar.source(1), planar.source(2)])
        }
    }

    /// A frame at the stream's size that the encoder cannot read as it is.
    private func atOwnSize(_ frame: VideoFrame, planes p: [SourcePlane], planar: Bool) throws(ConversionError) -> PictureBuffer {
        let (w, h) = (Int32(frame.width), Int32(frame.height))
        switch frame.pixelFormat {
        case .nv21 where !planar:
            let out = takeBuffer(.nv12, width: frame.width, height: frame.height)
            CopyPlane(p[0].base, Int32(p[0].bytesPerRow), out.plane(0), w, w, h)
            SwapUVPlane(p[1].base, Int32(p[1].bytesPerRow), out.plane(1), Int32(2 * out.chromaWidth),
                        Int32(out.chromaWidth), Int32(out.chromaHeight))
            return out
        case .yuyv where !planar, .uyvy where !planar:
            let out = takeBuffer(.nv12, width: frame.width, height: frame.height)
            let (stride, uvStride) = (Int32(p[0].bytesPerRow), Int32(2 * out.chromaWidth))
            let status = frame.pixelFormat == .yuyv
                ? YUY2ToNV12(p[0].base, stride, out.plane(0), w, out.plane(1), uvStride, w, h)
                : UYVYToNV12(p[0].base, stride, out.plane(0), w, out.plane(1), uvStride, w, h)
            guard status == 0 else {
                giveBack(out)
                throw .libyuvFailed(function: frame.pixelFormat == .yuyv ? "YUY2ToNV12" : "UYVYToNV12", status: Int(status))
            }
            return out
        default:
            let out = takeBuffer(.i420, width: frame.width, height: frame.height)
            do throws(ConversionError) {
                try toI420(frame.pixelFormat, p, into: out)
            } catch {
                giveBack(out)
                throw error
            }
            return out
        }
    }

    /// Converts a frame in `format` at `out`'s size into `out` (I420).
    private func toI420(_ format: PixelFormat, _ p: [SourcePlane], into out: PictureBuffer) throws(ConversionError) {
        let (w, h) = (Int32(out.width), Int32(out.height))
        let (y, u, v) = (out.plane(0), out.plane(1), out.plane(2))
        let (yw, cw) = (Int32(out.width), Int32(out.chromaWidth))
        func s(_ i: Int) -> Int32 { Int32(p[i].bytesPerRow) }
        let status: Int32
        let function: String
        switch format {
        case .nv12:
            (function, status) = ("NV12ToI420", NV12ToI420(p[0].base, s(0), p[1].base, s(1), y, yw, u, cw, v, cw, w, h))
        case .nv21:
            (function, status) = ("NV21ToI420", NV21ToI420(p[0].base, s(0), p[1].base, s(1), y, yw, u, cw, v, cw, w, h))
        case .yuyv:
            (function, status) = ("YUY2ToI420", YUY2ToI420(p[0].base, s(0), y, yw, u, cw, v, cw, w, h))
        case .uyvy:
            (function, status) = ("UYVYToI420", UYVYToI420(p[0].base, s(0), y, yw, u, cw, v, cw, w, h))
        case .rgb24:
            // libyuv names formats by little-endian word order: its "RAW" is R, G, B in memory,
            // which is V4L2 RGB3.
            (function, status) = ("RAWToI420", RAWToI420(p[0].base, s(0), y, yw, u, cw, v, cw, w, h))
        case .bgr24:
            // libyuv "RGB24" is B, G, R in memory, which is V4L2 BGR3.
            (function, status) = ("RGB24ToI420", RGB24ToI420(p[0].base, s(0), y, yw, u, cw, v, cw, w, h))
        case .bgra32:
            // libyuv "ARGB" is B, G, R, A in memory.
            (function, status) = ("ARGBToI420", ARGBToI420(p[0].base, s(0), y, yw, u, cw, v, cw, w, h))
        case .i420, .yv12:
            preconditionFailure("\(format) is scaled where it lies, not converted")
        case .mjpeg:
            throw .unsupportedPixelFormat(.mjpeg)
        }
        guard status == 0 else { throw .libyuvFailed(function: function, status: Int(status)) }
    }

    /// Scales the I420 planes `p` of `frame` into a stream-sized I420 buffer, as `scaling` says.
    private func scaled(_ frame: VideoFrame, planes p: [SourcePlane]) throws(ConversionError) -> PictureBuffer {
        let geometry = ScaleGeometry(
            sourceWidth: frame.width, sourceHeight: frame.height, width: size.width, height: size.height, mode: scaling)
        let out = takeBuffer(.i420, width: size.width, height: size.height)
        let cw = out.chromaWidth
        if out.paintedGeometry != geometry, geometry.hasBars(width: size.width, height: size.height) {
            // Studio-range black: Y 16, U and V 128. Only the picture area is rewritten per frame.
            let status = I420Rect(
                out.plane(0), Int32(out.width), out.plane(1), Int32(cw), out.plane(2), Int32(cw),
                0, 0, Int32(out.width), Int32(out.height), 16, 128, 128)
            guard status == 0 else {
                giveBack(out)
                throw .libyuvFailed(function: "I420Rect", status: Int(status))
            }
        }
        out.paintedGeometry = geometry
        let (from, to) = (geometry.source, geometry.destination)
        let status = I420Scale(
            p[0].at(x: from.x, y: from.y), Int32(p[0].bytesPerRow),
            p[1].at(x: from.x / 2, y: from.y / 2), Int32(p[1].bytesPerRow),
            p[2].at(x: from.x / 2, y: from.y / 2), Int32(p[2].bytesPerRow),
            Int32(from.width), Int32(from.height),
            out.plane(0) + to.y * out.width + to.x, Int32(out.width),
            out.plane(1) + (to.y / 2) * cw + to.x / 2, Int32(cw),
            out.plane(2) + (to.y / 2) * cw + to.x / 2, Int32(cw),
            Int32(to.width), Int32(to.height),
            kFilterBilinear)
        guard status == 0 else {
            out.paintedGeometry = nil
            giveBack(out)
            throw .libyuvFailed(function: "I420Scale", status: Int(status))
        }
        return out
    }
}
