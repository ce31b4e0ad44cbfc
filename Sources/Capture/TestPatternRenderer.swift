import Media

/// Draws the built-in test pattern into I420 frames.
///
/// The background is a textured set of colour bars that scrolls sideways every frame, so the whole
/// picture moves and the encoder does real motion search and spends real bits, as it would on a
/// camera. A bouncing box and a burnt-in frame counter make each frame distinct to the eye.
/// Per frame the cost is one row copy per line plus two small rectangles, cheap enough at 1080p.
struct TestPatternRenderer {
    let width: Int
    let height: Int
    let layout: (planes: [VideoPlane], byteCount: Int)
    /// Backgrounds twice as wide as the picture so any scroll offset is one contiguous copy per row.
    private let lumaBackground: [UInt8]
    private let chromaBackgroundU: [UInt8]
    private let chromaBackgroundV: [UInt8]

    /// 75% colour bars in BT.601 limited range: white, yellow, cyan, green, magenta, red, blue, black.
    private static let bars: [(y: UInt8, u: UInt8, v: UInt8)] = [
        (180, 128, 128), (162, 44, 142), (131, 156, 44), (112, 72, 58),
        (84, 184, 198), (65, 100, 212), (35, 212, 114), (16, 128, 128),
    ]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        layout = VideoFrame.i420Planes(width: width, height: height)

        let wideLuma = 2 * width
        var luma = [UInt8](repeating: 0, count: wideLuma * height)
        // A fixed pseudo-random texture (xorshift) so the bars are not flat: flat areas cost the
        // encoder nothing and would make bitrate tests meaningless.
        var seed: UInt32 = 0x9E37_79B9
        for y in 0..<height {
            for x in 0..<wideLuma {
                seed ^= seed << 13
                seed ^= seed >> 17
                seed ^= seed << 5
                let bar = Self.bars[(x % width) * Self.bars.count / width]
                let texture = Int(seed & 0x1F) - 16
                luma[y * wideLuma + x] = UInt8(clamping: Int(bar.y) + texture)
            }
        }
        let chromaWidth = width / 2
        let wideChroma = 2 * chromaWidth
        var u = [UInt8](repeating: 128, count: wideChroma * (height / 2))
        var v = u
        for y in 0..<(height / 2) {
            for x in 0..<wideChroma {
                let bar = Self.bars[(x % chromaWidth) * Self.bars.count / chromaWidth]
                u[y * wideChroma + x] = bar.u
                v[y * wideChroma + x] = bar.v
            }
        }
        lumaBackground = luma
        chromaBackgroundU = u
        chromaBackgroundV = v
    }

    /// Renders frame number `index` into `buffer`, which must hold `layout.byteCount` bytes.
    func render(frame index: UInt64, into buffer: inout [UInt8]) {
        precondition(buffer.count == layout.byteCount)
        let step = max(2, width / 160)
        let lumaShift = Int((index &* UInt64(step)) % UInt64(width))
        buffer.withUnsafeMutableBytes { out in
            let base = out.baseAddress!
            copyScrolled(lumaBackground, rowWidth: width, rows: height, shift: lumaShift, to: base + layout.planes[0].offset)
            copyScrolled(chromaBackgroundU, rowWidth: width / 2, rows: height / 2, shift: lumaShift / 2, to: base + layout.planes[1].offset)
            copyScrolled(chromaBackgroundV, rowWidth: width / 2, rows: height / 2, shift: lumaShift / 2, to: base + layout.planes[2].offset)
        }
        drawBouncingBox(frame: index, into: &buffer)
        drawCounter(index, into: &buffer)
    }

    private func copyScrolled(_ wide: [UInt8], rowWidth: Int, rows: Int, shift: Int, to destination: UnsafeMutableRawPointer) {
        wide.withUnsafeBytes { source in
            for row in 0..<rows {
                let from = source.baseAddress! + row * 2 * rowWidth + shift
                (destination + row * rowWidth).copyMemory(from: from, byteCount: rowWidth)
            }
        }
    }

    private func drawBouncingBox(frame index: UInt64, into buffer: inout [UInt8]) {
        let side = max(8, height / 6) & ~1
        let travelX = width - side
        let travelY = height - side
        guard travelX > 0, travelY > 0 else { return }
        // Triangle waves: the box bounces off the edges instead of jumping back.
        func bounce(_ t: Int, _ range: Int) -> Int {
            let period = 2 * range
            let p = t % period
            return p < range ? p : period - p
        }
        let x = bounce(Int(index % UInt64(Int32.max)) * 3, travelX) & ~1
        let y = bounce(Int(index % UInt64(Int32.max)) * 2, travelY) & ~1
        fill(x: x, y: y, width: side, height: side, luma: 235, u: 128, v: 128, into: &buffer)
    }

    private func drawCounter(_ index: UInt64, into buffer: inout [UInt8]) {
        let digits = String(index).compactMap(\.wholeNumberValue)
        let scale = max(2, height / 90)
        let glyphWidth = (DigitFont.columns + 1) * scale
        let margin = 2 * scale
        let boxWidth = min(width, digits.count * glyphWidth + 2 * margin) & ~1
        let boxHeight = min(height, DigitFont.rows * scale + 2 * margin) & ~1
        fill(x: 0, y: 0, width: boxWidth, height: boxHeight, luma: 16, u: 128, v: 128, into: &buffer)
        for (position, digit) in digits.enumerated() {
            for row in 0..<DigitFont.rows {
                for column in 0..<DigitFont.columns where DigitFont.isSet(digit: digit, column: column, row: row) {
                    let px = margin + position * glyphWidth + column * scale
                    let py = margin + row * scale
                    guard px + scale <= width, py + scale <= height else { continue }
                    for dy in 0..<scale {
                        let start = (py + dy) * width + px
                        for dx in 0..<scale { buffer[start + dx] = 235 }
                    }
                }
            }
        }
    }

    /// Fills an even-aligned rectangle in all three planes.
    private func fill(x: Int, y: Int, width w: Int, height h: Int, luma: UInt8, u: UInt8, v: UInt8, into buffer: inout [UInt8]) {
        let uPlane = layout.planes[1]
        let vPlane = layout.planes[2]
        buffer.withUnsafeMutableBytes { out in
            for row in y..<min(y + h, height) {
                (out.baseAddress! + row * width + x).initializeMemory(as: UInt8.self, repeating: luma, count: w)
            }
            for row in (y / 2)..<min((y + h) / 2, height / 2) {
                (out.baseAddress! + uPlane.offset + row * uPlane.bytesPerRow + x / 2).initializeMemory(as: UInt8.self, repeating: u, count: w / 2)
                (out.baseAddress! + vPlane.offset + row * vPlane.bytesPerRow + x / 2).initializeMemory(as: UInt8.self, repeating: v, count: w / 2)
            }
        }
    }
}
