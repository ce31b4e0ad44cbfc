/// A `TextLayer` as one component of a pixel format sees it: the component's value and alpha at
/// that component's sampling (chroma averaged over the 2×2 or 2×1 pixels it covers). Built when the
/// text changes; per frame, blending only reads it.
struct ComponentLayer {
    let component: PixelComponent
    let width: Int
    let height: Int
    private(set) var values: [UInt8]
    private(set) var alphas: [UInt8]

    init(_ layer: TextLayer, component: PixelComponent) {
        self.component = component
        width = layer.width >> component.xShift
        height = layer.height >> component.yShift
        values = [UInt8](repeating: 0, count: width * height)
        alphas = [UInt8](repeating: 0, count: width * height)
        let (cellWidth, cellHeight) = (1 << component.xShift, 1 << component.yShift)
        let cellSize = cellWidth * cellHeight
        layer.pixels.withUnsafeBufferPointer { rgba in
            for y in 0..<height {
                for x in 0..<width {
                    // Alpha-weighted average, so a glyph's edge does not pull chroma towards black.
                    var weighted = 0, alphaSum = 0
                    for dy in 0..<cellHeight {
                        for dx in 0..<cellWidth {
                            let pixel = ((y * cellHeight + dy) * layer.width + x * cellWidth + dx) * 4
                            let alpha = Int(rgba[pixel + 3])
                            guard alpha > 0 else { continue }
                            weighted += Self.value(component.kind, rgba[pixel], rgba[pixel + 1], rgba[pixel + 2]) * alpha
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

    private static func value(_ kind: PixelComponent.Kind, _ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Int {
        switch kind {
        case .red: return Int(red)
        case .green: return Int(green)
        case .blue: return Int(blue)
        case .luma, .cb, .cr:
            let yuv = OverlayColour(red: red, green: green, blue: blue).ycbcr
            return kind == .luma ? yuv.y : kind == .cb ? yuv.cb : yuv.cr
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
                for row in 0..<rows {
                    let line = plane + (y + row) * bytesPerRow + x * step + offset
                    let layerRow = row * width
                    for column in 0..<columns {
                        let alpha = Int(alphas[layerRow + column])
                        guard alpha > 0 else { continue }
                        let under = Int(line[column * step])
                        let over = Int(values[layerRow + column])
                        line[column * step] = UInt8((under * (255 - alpha) + over * alpha + 127) / 255)
                    }
                }
            }
        }
    }
}
