import Media
import Testing

@testable import Overlay

/// A text's layer as each pixel format's components see it, against the plain formula: the value
/// at every pixel, then per sample the alpha-weighted average of its cell (1×1, 2×1 or 2×2
/// pixels) and the cell's mean alpha, both rounded. The layer's shortcuts (no division where a
/// cell's pixels agree) must give the same bytes.
@Suite struct ComponentLayerTests {
    /// A layer of random pixels where runs of equal ones (a box, a glyph's inside) and fully
    /// transparent ones are common, so every path is taken.
    static func layer(width: Int, height: Int) -> TextLayer {
        var layer = TextLayer(picture: nil, width: width, height: height, fill: .black)
        var generator = SystemRandomNumberGenerator()
        let palette: [[UInt8]] = [[0, 0, 0, 153], [255, 255, 255, 255], [0, 0, 0, 0], [200, 30, 90, 255]]
        for pixel in 0..<(width * height) {
            // Blocks of 5×3 equal pixels (so some cells are uniform and some straddle two
            // blocks), one pixel in eight random.
            let rgba = Int.random(in: 0..<8, using: &generator) == 0
                ? (0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) }
                : palette[((pixel % width) / 5 + (pixel / width) / 3) % palette.count]
            layer.pixels.replaceSubrange((pixel * 4)..<(pixel * 4 + 4), with: rgba)
        }
        return layer
    }

    static func reference(_ layer: TextLayer, _ component: PixelComponent) -> (values: [UInt8], alphas: [UInt8]) {
        func value(_ pixel: Int) -> Int {
            let (r, g, b) = (Int(layer.pixels[pixel * 4]), Int(layer.pixels[pixel * 4 + 1]), Int(layer.pixels[pixel * 4 + 2]))
            switch component.kind {
            case .red: return r
            case .green: return g
            case .blue: return b
            case .luma: return 16 + (66 * r + 129 * g + 25 * b + 128) >> 8
            case .cb: return 128 + (-38 * r - 74 * g + 112 * b + 128) >> 8
            case .cr: return 128 + (112 * r - 94 * g - 18 * b + 128) >> 8
            }
        }
        let (cellWidth, cellHeight) = (1 << component.xShift, 1 << component.yShift)
        let (width, height) = (layer.width / cellWidth, layer.height / cellHeight)
        var values = [UInt8](repeating: 0, count: width * height)
        var alphas = values
        for y in 0..<height {
            for x in 0..<width {
                var weighted = 0, alphaSum = 0
                for dy in 0..<cellHeight {
                    for dx in 0..<cellWidth {
                        let pixel = (y * cellHeight + dy) * layer.width + x * cellWidth + dx
                        let alpha = Int(layer.pixels[pixel * 4 + 3])
                        weighted += value(pixel) * alpha
                        alphaSum += alpha
                    }
                }
                guard alphaSum > 0 else { continue }
                values[y * width + x] = UInt8(truncatingIfNeeded: (weighted + alphaSum / 2) / alphaSum)
                alphas[y * width + x] = UInt8((alphaSum + cellWidth * cellHeight / 2) / (cellWidth * cellHeight))
            }
        }
        return (values, alphas)
    }

    @Test(arguments: [PixelFormat.i420, .nv12, .yuyv, .uyvy, .rgb24, .bgra32])
    func agreesWithTheFormula(format: PixelFormat) throws {
        let layer = Self.layer(width: 58, height: 22)
        for component in try #require(PixelComponent.of(format)) {
            let made = ComponentLayer(layer, component: component)
            let expected = Self.reference(layer, component)
            #expect(made.values == expected.values, "\(component.kind) values")
            #expect(made.alphas == expected.alphas, "\(component.kind) alphas")
        }
    }
}
