import Media

extension VideoFrame {
    /// Rows and bytes per row each plane of this frame's format needs.
    var requiredPlanes: [(rows: Int, rowBytes: Int)]? {
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

    /// Throws unless every plane the format needs lies inside the frame's bytes, so C code never
    /// reads past the buffer.
    func checkLayout() throws(EncoderError) {
        guard width > 0, height > 0 else { throw .invalidFrame("size \(width)x\(height)") }
        guard let required = requiredPlanes else { throw .unsupportedPixelFormat(pixelFormat) }
        guard planes.count >= required.count else {
            throw .invalidFrame("\(pixelFormat.rawValue) needs \(required.count) planes, frame has \(planes.count)")
        }
        for (index, need) in required.enumerated() {
            let plane = planes[index]
            guard plane.offset >= 0, plane.bytesPerRow >= need.rowBytes else {
                throw .invalidFrame("plane \(index): offset \(plane.offset), \(plane.bytesPerRow) bytes per row, needs \(need.rowBytes)")
            }
            let end = plane.offset + plane.bytesPerRow * (need.rows - 1) + need.rowBytes
            guard end <= byteCount else {
                throw .invalidFrame("plane \(index) ends at byte \(end), buffer has \(byteCount)")
            }
        }
    }
}
