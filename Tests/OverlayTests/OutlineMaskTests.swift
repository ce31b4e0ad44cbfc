import Media
import Testing

@testable import Overlay

/// The outline from each glyph's cached mask (issue 41) is the picture the whole-line dilation
/// made: the largest coverage within the disc around each pixel of the line.
@Suite struct OutlineMaskTests {
    @Test(arguments: [16, 32, 64, 96])
    func theLinesOutlineIsTheDilationOfTheWholeLine(height: Int) throws {
        let face = try FontFace(path: OverlayDefaults.fontPath, height: height)
        // Digits and a clock's separators, glyphs that touch and overlap (AV, fi), descenders.
        for text in ["2026-11-26 12:34:56", "Front door", "AVAWfijgy", "|||"] {
            let layer = TextLayer(text: text, style: OverlayItem(text: text), font: face)
            let radius = face.outlineRadius
            let (coverage, outline) = TextLayer.rasterise(
                Array(text.unicodeScalars), font: face, padding: radius, width: layer.width, height: layer.height, outlined: true)
            let expected = Self.dilate(coverage, width: layer.width, height: layer.height, radius: radius)
            let got = try #require(outline)
            let differing = zip(got, expected).filter { $0 != $1 }.count
            #expect(differing == 0, "\(text) at \(height) px: \(differing) of \(expected.count) pixels differ")
            #expect(expected.contains { $0 > 0 } && coverage.contains { $0 > 128 })
        }
    }

    @Test func eachGlyphsOutlineIsMadeOnce() throws {
        let face = try FontFace(path: OverlayDefaults.fontPath, height: 48)
        for second in 0..<5 { _ = TextLayer(text: "12:34:5\(second)", style: OverlayItem(text: ""), font: face) }
        #expect(face.cachedOutlineCount == 7, "1 2 3 4 5 0 and the colon")
        _ = TextLayer(text: "12:34:56", style: OverlayItem(text: "", contrast: .box(.black, alpha: 0.6)), font: face)
        #expect(face.cachedOutlineCount == 7, "a box needs no outline")
    }

    /// The formula as it was applied to the whole line before issue 41, per pixel.
    static func dilate(_ coverage: [UInt8], width: Int, height: Int, radius: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: coverage.count)
        let reach = radius * radius + radius
        for y in 0..<height {
            for x in 0..<width {
                var best: UInt8 = 0
                for dy in -radius...radius {
                    for dx in -radius...radius where dx * dx + dy * dy <= reach {
                        let (sx, sy) = (x + dx, y + dy)
                        guard sx >= 0, sy >= 0, sx < width, sy < height else { continue }
                        best = max(best, coverage[sy * width + sx])
                    }
                }
                out[y * width + x] = best
            }
        }
        return out
    }
}
