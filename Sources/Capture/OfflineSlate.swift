import Media
import V4L2

/// The "camera offline" picture: a flat dark blue frame in the live frames' exact format and layout,
/// sent while the camera is gone and no good frame was captured yet. Flat costs the encoder almost
/// no bits, and the viewer sees a deliberate colour rather than a frozen or green picture.
enum OfflineSlate {
    /// BT.601 limited range, dark blue.
    static let yuv: (y: UInt8, u: UInt8, v: UInt8) = (40, 150, 118)
    /// The same colour as R, G, B.
    static let rgb: (r: UInt8, g: UInt8, b: UInt8) = (24, 33, 63)

    static func bytes(for layout: V4L2FrameLayout) -> [UInt8] {
        let (y, u, v) = yuv
        var bytes = [UInt8](repeating: y, count: layout.byteCount)
        func fill(plane: Int, rows: Int, rowBytes: Int, pattern: [UInt8]) {
            let p = layout.planes[plane]
            for row in 0..<rows {
                let start = p.offset + row * p.bytesPerRow
                for x in 0..<rowBytes { bytes[start + x] = pattern[x % pattern.count] }
            }
        }
        let w = layout.width, h = layout.height
        switch layout.pixelFormat {
        case .i420:
            fill(plane: 1, rows: h / 2, rowBytes: w / 2, pattern: [u])
            fill(plane: 2, rows: h / 2, rowBytes: w / 2, pattern: [v])
        case .yv12:
            fill(plane: 1, rows: h / 2, rowBytes: w / 2, pattern: [v])
            fill(plane: 2, rows: h / 2, rowBytes: w / 2, pattern: [u])
        case .nv12: fill(plane: 1, rows: h / 2, rowBytes: w, pattern: [u, v])
        case .nv21: fill(plane: 1, rows: h / 2, rowBytes: w, pattern: [v, u])
        case .yuyv: fill(plane: 0, rows: h, rowBytes: 2 * w, pattern: [y, u, y, v])
        case .uyvy: fill(plane: 0, rows: h, rowBytes: 2 * w, pattern: [u, y, v, y])
        case .rgb24: fill(plane: 0, rows: h, rowBytes: 3 * w, pattern: [rgb.r, rgb.g, rgb.b])
        case .bgr24: fill(plane: 0, rows: h, rowBytes: 3 * w, pattern: [rgb.b, rgb.g, rgb.r])
        case .bgra32: fill(plane: 0, rows: h, rowBytes: 4 * w, pattern: [rgb.b, rgb.g, rgb.r, 255])
        case .mjpeg: break  // never delivered: MJPEG is decoded to NV12 first
        }
        return bytes
    }
}
