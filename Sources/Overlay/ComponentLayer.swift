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
        values = [UInt8](repeating: 0, count: width * height)
        alphas = [UInt8](repeating: 0, count: width * height)
        let (cellWidth, cellHeight) = (1 << component.xShift, 1 << component.yShift)
        let cellSize = cellWidth * cellHeight
        // The component's value at every pixel first (one conversion a pixel, not one per cell
        // visit), then alpha-weighted averages over each cell, so a glyph's edge does not pull
        // chroma towards black.
        let full = Self.values(of: component.kind, in: layer)
        full.withUnsafeBufferPointer { full in
            layer.pixels.withUnsafeBufferPointer { rgba in
                for y in 0..<height {
                    for x in 0..<width {
                        var weighted = 0, alphaSum = 0
                        for dy in 0..<cellHeight {
                            let row = (y * cellHeight + dy) * layer.width + x * cellWidth
                            for dx in 0..<cellWidth {
                                let alpha = Int(rgba[(row + dx) * 4 + 3])
                                weighted += Int(full[row + dx]) * alpha
                                alphaSum += alpha
                            }
                        }
                        guard alphaSum > 0 else { continue }
                        values[y * width + x] = UInt8((weighted + alphaSum / 2) / alphaSum)
                        alphas[y * width + x] = UInt8((alphaSum + cellSize / 2) / cellSize)
                    }
                }
            }
        }
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
    private static func values(of kind: PixelComponent.Kind, in layer: TextLayer) -> [UInt8] {
        let count = layer.width * layer.height
        return [UInt8](unsafeUninitializedCapacity: count) { out, initialised in
            layer.pixels.withUnsafeBufferPointer { rgba in
                for index in 0..<count {
                    let (r, g, b) = (Int(rgba[index * 4]), Int(rgba[index * 4 + 1]), Int(rgba[index * 4 + 2]))
                    let value: Int
                    switch kind {
                    case .red: value = r
                    case .green: value = g
                    case .blue: value = b
                    case .luma: value = 16 + (66 * r + 129 * g + 25 * b + 128) >> 8
                    case .cb: value = 128 + (-38 * r - 74 * g + 112 * b + 128) >> 8
                    case .cr: value = 128 + (112 * r - 94 * g - 18 * b + 128) >> 8
                    }
                    out[index] = UInt8(truncatingIfNeeded: value)
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

    /// `mix` over `count` samples, 16 at a time in 16-bit lanes (the sum below stays under 65536),
    /// the rest one by one. Explicit vectors: the compiler cannot prove the three pointers apart.
    static func blendRow(
        _ line: UnsafeMutablePointer<UInt8>, _ values: UnsafePointer<UInt8>, _ alphas: UnsafePointer<UInt8>, count: Int
    ) {
        var column = 0
        while column + 16 <= count {
            let u = SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(line + column).loadUnaligned(as: SIMD16<UInt8>.self))
            let o = SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(values + column).loadUnaligned(as: SIMD16<UInt8>.self))
            let a = SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(alphas + column).loadUnaligned(as: SIMD16<UInt8>.self))
            let t = u &* (255 &- a) &+ o &* a &+ 128
            let mixed = SIMD16<UInt8>(truncatingIfNeeded: (t &+ (t &>> 8)) &>> 8)
            UnsafeMutableRawPointer(line + column).storeBytes(of: mixed, as: SIMD16<UInt8>.self)
            column += 16
        }
        while column < count {
            line[column] = mix(line[column], values[column], alphas[column])
            column += 1
        }
    }

    /// `under` covered by `over` at `alpha`/255: t / 255 rounded, without a division (exact for t < 65536).
    @inline(__always)
    static func mix(_ under: UInt8, _ over: UInt8, _ alpha: UInt8) -> UInt8 {
        let (u, o, a) = (UInt32(under), UInt32(over), UInt32(alpha))
        let t = u &* (255 &- a) &+ o &* a &+ 128
        return UInt8(truncatingIfNeeded: (t &+ (t >> 8)) >> 8)
    }
}
