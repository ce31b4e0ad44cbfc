internal import CYUV
import Media

/// Turns a `VideoFrame` into 4:2:0 planes at the encode size, converting and scaling with libyuv
/// only when needed.
///
/// I420 and NV12 at the encode size go to x264 straight from the frame's bytes (a borrowed frame:
/// straight from the camera driver's buffer), and x264 copies them into its own picture; YV12
/// too, with U and V swapped. Packed 4:2:2 (YUYV, UYVY) and NV21 at the encode size become NV12,
/// x264's own layout, so its input copy does not interleave chroma again (NV21 keeps its luma
/// where it is; only chroma is swapped). Everything else is converted to I420, libyuv reading the
/// frame's bytes where they are, and a frame of another size is scaled into the encode size as the
/// `ScalingMode` says. Keeps its scratch buffers between frames, so it lives inside the session's
/// lock.
final class FrameConverter {
    private var converted: I420Buffer?
    private var convertedNV12: NV12Buffer?
    private var scaled: I420Buffer?
    /// Where the last scaled picture went in `scaled`; when it changes, the bars are repainted.
    private var scaledGeometry: ScaleGeometry?

    /// Calls `body` with the frame as x264 input; the image is only valid inside `body`.
    func withImage<R>(
        of frame: VideoFrame, size: VideoSize, scaling: ScalingMode, _ body: (X264InputImage) throws(EncoderError) -> R
    ) throws(EncoderError) -> R {
        try frame.checkLayout()
        let sameSize = frame.width == size.width && frame.height == size.height
        return try frame.withUnsafeBytes { (bytes) throws(EncoderError) in
            // checkLayout saw every plane inside a non-empty buffer. A driver's mapping is untyped
            // memory: bind it to the bytes libyuv and x264 read it as.
            let base = bytes.bindMemory(to: UInt8.self).baseAddress!
            let source = planes(of: frame, in: base)
            let image = try sourceImage(frame: frame, planes: source, convertIfNotI420: !sameSize)
            return try body(sameSize ? image : scale(image, from: frame, to: size, mode: scaling))
        }
    }

    private func planes(of frame: VideoFrame, in base: UnsafePointer<UInt8>) -> [X264InputImage.Plane] {
        frame.planes.map { X264InputImage.Plane(base: base + $0.offset, bytesPerRow: $0.bytesPerRow) }
    }

    /// The frame as I420 or NV12 at its own size. NV12 stays NV12 unless it must be scaled, because
    /// libyuv scales only planar I420.
    private func sourceImage(
        frame: VideoFrame, planes p: [X264InputImage.Plane], convertIfNotI420: Bool
    ) throws(EncoderError) -> X264InputImage {
        switch frame.pixelFormat {
        case .i420:
            return X264InputImage(layout: .i420, planes: Array(p.prefix(3)))
        case .yv12:
            // Same planes as I420 in the order Y, V, U: swapping the pointers is the conversion.
            return X264InputImage(layout: .i420, planes: [p[0], p[2], p[1]])
        case .nv12 where !convertIfNotI420:
            return X264InputImage(layout: .nv12, planes: Array(p.prefix(2)))
        case .nv21 where !convertIfNotI420:
            let out = NV12Buffer.reusing(convertedNV12, width: frame.width, height: frame.height)
            convertedNV12 = out
            SwapUVPlane(p[1].base, Int32(p[1].bytesPerRow), out.uv, Int32(out.width), Int32(out.width / 2), Int32(out.height / 2))
            return out.image(luma: p[0])
        case .yuyv where !convertIfNotI420, .uyvy where !convertIfNotI420:
            let out = NV12Buffer.reusing(convertedNV12, width: frame.width, height: frame.height)
            convertedNV12 = out
            let (w, h, stride) = (Int32(out.width), Int32(out.height), Int32(p[0].bytesPerRow))
            let status = frame.pixelFormat == .yuyv
                ? YUY2ToNV12(p[0].base, stride, out.y, w, out.uv, w, w, h)
                : UYVYToNV12(p[0].base, stride, out.y, w, out.uv, w, w, h)
            guard status == 0 else {
                throw .conversionFailed(function: frame.pixelFormat == .yuyv ? "YUY2ToNV12" : "UYVYToNV12", status: Int(status))
            }
            return out.image()
        case .mjpeg:
            throw .unsupportedPixelFormat(.mjpeg)
        default:
            let out = I420Buffer.reusing(converted, width: frame.width, height: frame.height)
            converted = out
            let status = convert(frame.pixelFormat, p, into: out)
            guard status == 0 else {
                throw .conversionFailed(function: Self.libyuvFunction(for: frame.pixelFormat), status: Int(status))
            }
            return out.image
        }
    }

    private func convert(_ format: PixelFormat, _ p: [X264InputImage.Plane], into out: I420Buffer) -> Int32 {
        let w = Int32(out.width), h = Int32(out.height)
        let cw = Int32(out.chromaWidth), yw = Int32(out.width)
        func s(_ i: Int) -> Int32 { Int32(p[i].bytesPerRow) }
        switch format {
        case .nv12:
            return NV12ToI420(p[0].base, s(0), p[1].base, s(1), out.y, yw, out.u, cw, out.v, cw, w, h)
        case .nv21:
            return NV21ToI420(p[0].base, s(0), p[1].base, s(1), out.y, yw, out.u, cw, out.v, cw, w, h)
        case .yuyv:
            return YUY2ToI420(p[0].base, s(0), out.y, yw, out.u, cw, out.v, cw, w, h)
        case .uyvy:
            return UYVYToI420(p[0].base, s(0), out.y, yw, out.u, cw, out.v, cw, w, h)
        case .rgb24:
            // libyuv names formats by little-endian word order: its "RAW" is R, G, B in memory,
            // which is V4L2 RGB3.
            return RAWToI420(p[0].base, s(0), out.y, yw, out.u, cw, out.v, cw, w, h)
        case .bgr24:
            // libyuv "RGB24" is B, G, R in memory, which is V4L2 BGR3.
            return RGB24ToI420(p[0].base, s(0), out.y, yw, out.u, cw, out.v, cw, w, h)
        case .bgra32:
            // libyuv "ARGB" is B, G, R, A in memory.
            return ARGBToI420(p[0].base, s(0), out.y, yw, out.u, cw, out.v, cw, w, h)
        case .i420, .yv12, .mjpeg:
            preconditionFailure("\(format) is not converted here")
        }
    }

    private func scale(
        _ image: X264InputImage, from frame: VideoFrame, to size: VideoSize, mode: ScalingMode
    ) throws(EncoderError) -> X264InputImage {
        // sourceImage converts NV12 to I420 whenever the frame must be scaled.
        precondition(image.layout == .i420, "only planar I420 can be scaled")
        let geometry = ScaleGeometry(
            sourceWidth: frame.width, sourceHeight: frame.height, width: size.width, height: size.height, mode: mode)
        let out = I420Buffer.reusing(scaled, width: size.width, height: size.height)
        if out !== scaled || geometry != scaledGeometry, geometry.hasBars(width: size.width, height: size.height) {
            // Studio-range black: Y 16, U and V 128. Only the picture area is rewritten per frame.
            let status = I420Rect(
                out.y, Int32(out.width), out.u, Int32(out.chromaWidth), out.v, Int32(out.chromaWidth),
                0, 0, Int32(out.width), Int32(out.height), 16, 128, 128)
            guard status == 0 else { throw .conversionFailed(function: "I420Rect", status: Int(status)) }
        }
        scaled = out
        scaledGeometry = geometry

        let (from, to) = (geometry.source, geometry.destination)
        func at(_ plane: X264InputImage.Plane, x: Int, y: Int) -> UnsafePointer<UInt8> {
            plane.base + y * plane.bytesPerRow + x
        }
        let p = image.planes
        let cw = out.chromaWidth
        let status = I420Scale(
            at(p[0], x: from.x, y: from.y), Int32(p[0].bytesPerRow),
            at(p[1], x: from.x / 2, y: from.y / 2), Int32(p[1].bytesPerRow),
            at(p[2], x: from.x / 2, y: from.y / 2), Int32(p[2].bytesPerRow),
            Int32(from.width), Int32(from.height),
            out.y + to.y * out.width + to.x, Int32(out.width),
            out.u + (to.y / 2) * cw + to.x / 2, Int32(cw),
            out.v + (to.y / 2) * cw + to.x / 2, Int32(cw),
            Int32(to.width), Int32(to.height),
            kFilterBilinear)
        guard status == 0 else { throw .conversionFailed(function: "I420Scale", status: Int(status)) }
        return out.image
    }

    private static func libyuvFunction(for format: PixelFormat) -> String {
        switch format {
        case .nv12: "NV12ToI420"
        case .nv21: "NV21ToI420"
        case .yuyv: "YUY2ToI420"
        case .uyvy: "UYVYToI420"
        case .rgb24: "RAWToI420"
        case .bgr24: "RGB24ToI420"
        case .bgra32: "ARGBToI420"
        case .i420, .yv12, .mjpeg: "none"
        }
    }
}
