import Media

/// A `TextLayer` as one component of a pixel format sees it: the component's value and alpha at
/// that component's sampling (chroma averaged over the 2×2 or 2×1 pixels it covers). Built when the
/// text changes; per frame, blending only reads it.
struct ComponentLayer {
    let component: PixelComponent
    let width: Int
    let height: Int
    private(set) var values: [UInt8]
    private(set) var alphas: [UInt8]
    /// Per row, the columns from the first to the last sample the text covers (alpha > 0): only
    /// those are saved, blended and put back (an outlined text leaves most of its box untouched).
    private(set) var spans: [Range<Int>] = []

    init(_ layer: TextLayer, component: PixelComponent) {
        self.component = component
        width = layer.width >> component.xShift
        height = layer.height >> component.yShift
        var values = [UInt8](repeating: 0, count: width * height)
        var alphas = [UInt8](repeating: 0, count: width * height)
        let (cellWidth, cellHeight) = (1 << component.xShift, 1 << component.yShift)
        let cellSize = cellWidth * cellHeight
        // The component's value at every pixel first (one conversion a pixel, not one per cell
        // visit), then alpha-weighted averages over each cell, so a glyph's edge does not pull
        // chroma towards black.
        let full = Self.values(of: component.kind, in: layer)
        let (across, down, sourceWidth) = (width, height, layer.width)
        if cellSize == 1 {
            // One pixel a sample (luma, RGB): the average is the pixel, where it is not transparent.
            full.withUnsafeBufferPointer { full in
                layer.pixels.withUnsafeBufferPointer { rgba in
                    values.withUnsafeMutableBufferPointer { values in
                        alphas.withUnsafeMutableBufferPointer { alphas in
                            for index in 0..<(across * down) {
                                let alpha = rgba[index &* 4 &+ 3]
                                values[index] = alpha > 0 ? full[index] : 0
                                alphas[index] = alpha
                            }
                        }
                    }
                }
            }
        } else {
            full.withUnsafeBufferPointer { full in
                layer.pixels.withUnsafeBufferPointer { rgba in
                    values.withUnsafeMutableBufferPointer { values in
                        alphas.withUnsafeMutableBufferPointer { alphas in
                            for y in 0..<down {
                                for x in 0..<across {
                                    let first = y &* cellHeight &* sourceWidth &+ x &* cellWidth
                                    let (value, alpha) = (full[first], rgba[first &* 4 &+ 3])
                                    var weighted = 0, alphaSum = 0, uniform = true
                                    for dy in 0..<cellHeight {
                                        let row = first &+ dy &* sourceWidth
                                        for dx in 0..<cellWidth {
                                            let (v, a) = (full[row &+ dx], rgba[(row &+ dx) &* 4 &+ 3])
                                            uniform = uniform && v == value && a == alpha
                                            weighted &+= Int(v) &* Int(a)
                                            alphaSum &+= Int(a)
                                        }
                                    }
                                    guard alphaSum > 0 else { continue }
                                    // A cell whose pixels agree (inside a glyph or a box) averages
                                    // to that pixel exactly: no division.
                                    let index = y &* across &+ x
                                    if uniform {
                                        (values[index], alphas[index]) = (value, alpha)
                                    } else {
                                        values[index] = UInt8((weighted + alphaSum / 2) / alphaSum)
                                        alphas[index] = UInt8((alphaSum + cellSize / 2) / cellSize)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        self.values = values
        self.alphas = alphas
        spans = (0..<height).map { y in
            let row = alphas[(y * width)..<((y + 1) * width)]
            guard let first = row.firstIndex(where: { $0 != 0 }), let last = row.lastIndex(where: { $0 != 0 }) else { return 0..<0 }
            return (first - y * width)..<(last - y * width + 1)
        }
    }

    /// The columns of `row` to touch, clipped to `columns` (the part inside the frame).
    func span(row: Int, columns: Int) -> Range<Int> {
        let span = spans[row]
        return span.lowerBound..<max(span.lowerBound, min(span.upperBound, columns))
    }

    /// `kind` at every pixel of `layer` (limited-range BT.601 for Y, Cb, Cr, as `OverlayColour.ycbcr`).
    /// Every kind is `base + (r·kr + g·kg + b·kb + 128) >> 8` (R, G and B alone: 256 for their
    /// own channel, which gives the channel back exactly), so the loop has no branch per pixel.
    private static func values(of kind: PixelComponent.Kind, in layer: TextLayer) -> [UInt8] {
        let (base, kr, kg, kb): (Int32, Int32, Int32, Int32)
        switch kind {
        case .red: (base, kr, kg, kb) = (0, 256, 0, 0)
        case .green: (base, kr, kg, kb) = (0, 0, 256, 0)
        case .blue: (base, kr, kg, kb) = (0, 0, 0, 256)
        case .luma: (base, kr, kg, kb) = (16, 66, 129, 25)
        case .cb: (base, kr, kg, kb) = (128, -38, -74, 112)
        case .cr: (base, kr, kg, kb) = (128, 112, -94, -18)
        }
        let count = layer.width * layer.height
        return [UInt8](unsafeUninitializedCapacity: count) { out, initialised in
            layer.pixels.withUnsafeBufferPointer { rgba in
                for index in 0..<count {
                    let (r, g, b) = (Int32(rgba[index &* 4]), Int32(rgba[index &* 4 &+ 1]), Int32(rgba[index &* 4 &+ 2]))
                    out[index] = UInt8(truncatingIfNeeded: base &+ ((kr &* r &+ kg &* g &+ kb &* b &+ 128) &>> 8))
                }
            }
            initialised = count
        }
    }

    /// Blends into a plane whose rows start `bytesPerRow` apart at `plane`, this layer's top-left
    /// sample at sample (`x`, `y`) of the component, clipped to `limit` samples across and down.
    /// Writes only samples the text covers (alpha > 0).
    func blend(into plane: UnsafeMutablePointer<UInt8>, bytesPerRow: Int, x: Int, y: Int, limit: (width: Int, height: Int)) {
        let columns = max(0, min(width, limit.width - x))
        let rows = max(0, min(height, limit.height - y))
        let (step, offset) = (component.step, component.offset)
        values.withUnsafeBufferPointer { values in
            alphas.withUnsafeBufferPointer { alphas in
                guard let values = values.baseAddress, let alphas = alphas.baseAddress else { return }
                for row in 0..<rows {
                    let span = span(row: row, columns: columns)
                    guard !span.isEmpty else { continue }
                    let line = plane + (y + row) * bytesPerRow + (x + span.lowerBound) * step + offset
                    let layerRow = row * width + span.lowerBound
                    // No branch on alpha: where it is 0 the sum gives back the byte unchanged
                    // (exactly), so a planar row goes 16 samples at a time.
                    if step == 1 {
                        Self.blendRow(line, values + layerRow, alphas + layerRow, count: span.count)
                    } else {
                        for column in 0..<span.count {
                            line[column * step] = Self.mix(line[column * step], values[layerRow + column], alphas[layerRow + column])
                        }
                    }
                }
            }
        }
    }

    /// `mix` over `count` samples, 16 at a time, the rest one by one. Each 16 bytes are loaded as
    /// eight 16-bit lanes and split into their even and odd bytes by masking and shifting, so every
    /// step is a plain lane operation the compiler inlines (a widening conversion between vector
    /// types was an out-of-line call per load, two thirds of this loop's time); the sum stays under
    /// 65536. Explicit vectors: the compiler cannot prove the three pointers apart.
    static func blendRow(
        _ line: UnsafeMutablePointer<UInt8>, _ values: UnsafePointer<UInt8>, _ alphas: UnsafePointer<UInt8>, count: Int
    ) {
        typealias Lanes = SIMD8<UInt16>
        let low = Lanes(repeating: 0x00FF)
        var column = 0
        while column + 16 <= count {
            let u = UnsafeRawPointer(line + column).loadUnaligned(as: Lanes.self)
            let o = UnsafeRawPointer(values + column).loadUnaligned(as: Lanes.self)
            let a = UnsafeRawPointer(alphas + column).loadUnaligned(as: Lanes.self)
            let even = mixLanes(u & low, o & low, a & low)
            let odd = mixLanes(u &>> 8, o &>> 8, a &>> 8)
            UnsafeMutableRawPointer(line + column).storeBytes(of: even | (odd &<< 8), as: Lanes.self)
            column += 16
        }
        while column < count {
            line[column] = mix(line[column], values[column], alphas[column])
            column += 1
        }
    }

    /// `mix` in 16-bit lanes, each holding one byte's value.
    @inline(__always)
    private static func mixLanes(_ u: SIMD8<UInt16>, _ o: SIMD8<UInt16>, _ a: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let t = u &* (255 &- a) &+ o &* a &+ 128
        return (t &+ (t &>> 8)) &>> 8
    }

    /// `under` covered by `over` at `alpha`/255: t / 255 rounded, without a division (exact for t < 65536).
    @inline(__always)
    static func mix(_ under: UInt8, _ over: UInt8, _ alpha: UInt8) -> UInt8 {
        let (u, o, a) = (UInt32(under), UInt32(over), UInt32(alpha))
        let t = u &* (255 &- a) &+ o &* a &+ 128
        return UInt8(truncatingIfNeeded: (t &+ (t >> 8)) >> 8)
    }
}
