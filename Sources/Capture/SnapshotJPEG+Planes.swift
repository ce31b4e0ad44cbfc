import Media

extension SnapshotJPEG {
    /// A YUV frame as three tightly packed planes: full-size Y, and U and V at half width and,
    /// for 4:2:0, half height (4:2:2 keeps full-height chroma).
    struct YUVPlanes {
        var y: [UInt8]
        var u: [UInt8]
        var v: [UInt8]
        var chromaWidth: Int
        var fullHeightChroma: Bool

        init?(_ frame: VideoFrame) {
            let width = frame.width
            let height = frame.height
            chromaWidth = (width + 1) / 2
            let format = frame.pixelFormat
            fullHeightChroma = format == .yuyv || format == .uyvy
            let chromaHeight = fullHeightChroma ? height : (height + 1) / 2
            var y = [UInt8](repeating: 0, count: width * height)
            var u = [UInt8](repeating: 128, count: chromaWidth * chromaHeight)
            var v = u
            let chromaWidth = chromaWidth
            let ok: Bool = frame.withUnsafeBytes { bytes in
                let planes = frame.planes
                func byte(_ plane: Int, _ row: Int, _ column: Int) -> UInt8 {
                    bytes[planes[plane].offset + row * planes[plane].bytesPerRow + column]
                }
                switch format {
                case .i420, .yv12:
                    guard planes.count >= 3 else { return false }
                    let (uPlane, vPlane) = format == .i420 ? (1, 2) : (2, 1)
                    for row in 0..<height { for column in 0..<width { y[row * width + column] = byte(0, row, column) } }
                    for row in 0..<chromaHeight {
                        for column in 0..<chromaWidth {
                            u[row * chromaWidth + column] = byte(uPlane, row, column)
                            v[row * chromaWidth + column] = byte(vPlane, row, column)
                        }
                    }
                case .nv12, .nv21:
                    guard planes.count >= 2 else { return false }
                    let (uFirst) = format == .nv12
                    for row in 0..<height { for column in 0..<width { y[row * width + column] = byte(0, row, column) } }
                    for row in 0..<chromaHeight {
                        for column in 0..<chromaWidth {
                            let first = byte(1, row, column * 2)
                            let second = byte(1, row, column * 2 + 1)
                            u[row * chromaWidth + column] = uFirst ? first : second
                            v[row * chromaWidth + column] = uFirst ? second : first
                        }
                    }
                case .yuyv, .uyvy:
                    guard !planes.isEmpty else { return false }
                    // YUYV: Y0 U Y1 V; UYVY: U Y0 V Y1.
                    let (y0, uAt, y1, vAt) = format == .yuyv ? (0, 1, 2, 3) : (1, 0, 3, 2)
                    for row in 0..<height {
                        for pair in 0..<(width / 2) {
                            let base = pair * 4
                            y[row * width + pair * 2] = byte(0, row, base + y0)
                            y[row * width + pair * 2 + 1] = byte(0, row, base + y1)
                            u[row * chromaWidth + pair] = byte(0, row, base + uAt)
                            v[row * chromaWidth + pair] = byte(0, row, base + vAt)
                        }
                    }
                default:
                    return false
                }
                return true
            }
            guard ok else { return nil }
            self.y = y
            self.u = u
            self.v = v
        }
    }
}
