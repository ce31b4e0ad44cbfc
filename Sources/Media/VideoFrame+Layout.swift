/// The one rule for where a frame's planes must lie, shared by the conversion stage (which reads
/// every raw format) and the encoder (which reads I420 and NV12), so C code never reads past a buffer.
extension VideoFrame {
    /// Rows and bytes per row each plane of this frame's format needs; nil for MJPEG (not raw pixels).
    package var requiredPlanes: [(rows: Int, rowBytes: Int)]? {
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        switch pixelFormat {
        case .i420, .yv12:
            return [(height, width), (chromaHeight, chromaWidth), (chromaHeight, chromaWidth)]
        case .nv12, .nv21:
            return [(height, width), (chromaHeight, 2 * chromaWidth)]
        case .yuyv, .uyvy:
            return [(height, 4 * chromaWidth)]
        case .rgb24, .bgr24:
            return [(height, 3 * width)]
        case .bgra32:
            return [(height, 4 * width)]
        case .mjpeg:
            return nil
        }
    }

    /// What is wrong with the frame's planes, in words; nil when every plane its format needs lies
    /// inside its bytes. A format without planes (MJPEG) is the caller's to refuse first.
    package var layoutProblem: String? {
        guard width > 0, height > 0 else { return "size \(width)x\(height)" }
        guard let required = requiredPlanes else { return "\(pixelFormat.rawValue) frames have no planes" }
        guard planes.count >= required.count else {
            return "\(pixelFormat.rawValue) needs \(required.count) planes, frame has \(planes.count)"
        }
        for (index, need) in required.enumerated() {
            let plane = planes[index]
            guard plane.offset >= 0, plane.bytesPerRow >= need.rowBytes else {
                return "plane \(index): offset \(plane.offset), \(plane.bytesPerRow) bytes per row, needs \(need.rowBytes)"
            }
            let end = plane.offset + plane.bytesPerRow * (need.rows - 1) + need.rowBytes
            guard end <= byteCount else { return "plane \(index) ends at byte \(end), buffer has \(byteCount)" }
        }
        return nil
    }
}
