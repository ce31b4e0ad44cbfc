import Media

/// One item's text drawn once into a small RGBA picture of its own (straight alpha): the glyphs in
/// their colour over an outline or a box. Blending later reads only this, so the text is laid out
/// again only when it changes (once a second for a clock), not per frame.
struct TextLayer {
    /// Even, so that 4:2:0 and 4:2:2 chroma samples line up with the frame's.
    let width: Int
    let height: Int
    /// R, G, B, A per pixel.
    /// Written only by this type's initialisers (the text's, and the slate's in TextLayer+Picture).
    var pixels: [UInt8]

    init(text: String, style: OverlayItem, font: FontFace) {
        let scalars = Array(text.unicodeScalars)
        let glyphs = scalars.map { font.glyph(for: $0) }
        let padding: Int
        switch style.contrast {
        case .none: padding = 0
        case .outline: padding = Self.outlineRadius(height: font.lineHeight)
        case .box: padding = max(2, font.lineHeight / 6)
        }
        var textWidth = 0
        var right = 0
        for glyph in glyphs {
            right = max(right, textWidth + glyph.left + glyph.width)
            textWidth += glyph.advance
        }
        textWidth = max(textWidth, right)
        width = (textWidth + 2 * padding + 1) & ~1
        height = (font.lineHeight + 2 * padding + 1) & ~1
        var coverage = [UInt8](repeating: 0, count: width * height)
        var pen = padding
        let baseline = padding + font.ascender
        for glyph in glyphs {
            Self.draw(glyph, at: pen + glyph.left, baseline - glyph.top, into: &coverage, width: width, height: height)
            pen += glyph.advance
        }
        pixels = [UInt8](repeating: 0, count: width * height * 4)
        compose(coverage: coverage, style: style, padding: padding)
    }

    /// The outline's thickness: about a sixteenth of the line, at least a pixel.
    static func outlineRadius(height: Int) -> Int { max(1, (height + 8) / 16) }

    private static func draw(_ glyph: Glyph, at x: Int, _ y: Int, into coverage: inout [UInt8], width: Int, height: Int) {
        for row in 0..<glyph.rows where (0..<height).contains(y + row) {
            for column in 0..<glyph.width where (0..<width).contains(x + column) {
                let index = (y + row) * width + x + column
                coverage[index] = max(coverage[index], glyph.coverage[row * glyph.width + column])
            }
        }
    }

    private mutating func compose(coverage: [UInt8], style: OverlayItem, padding: Int) {
        let background: (colour: OverlayColour, alpha: [UInt8])?
        switch style.contrast {
        case .none:
            background = nil
        case .outline(let colour):
            background = (colour, Self.dilate(coverage, width: width, height: height, radius: padding))
        case .box(let colour, let alpha):
            let level = UInt8(max(0, min(255, (alpha * 255).rounded())))
            background = (colour, [UInt8](repeating: level, count: width * height))
        }
        let text = style.colour
        let under = background?.colour ?? text
        let count = width * height
        let backgroundAlpha = background?.alpha ?? [UInt8](repeating: 0, count: count)
        pixels.withUnsafeMutableBufferPointer { pixels in
            coverage.withUnsafeBufferPointer { coverage in
                backgroundAlpha.withUnsafeBufferPointer { backgroundAlpha in
                    for index in 0..<count {
                        let top = Int(coverage[index])
                        let bottom = Int(backgroundAlpha[index])
                        // Whole coverage or none (most of a layer) needs no division: the sums below
                        // give the text's or the background's colour exactly there.
                        if top == 255 {
                            Self.store(text, alpha: 255, at: index, in: pixels)
                            continue
                        }
                        if top == 0 {
                            if bottom > 0 { Self.store(under, alpha: bottom, at: index, in: pixels) }
                            continue
                        }
                        // Porter-Duff "over", straight alpha, in 0…255 fixed point.
                        let below = bottom * (255 - top) / 255
                        let alpha = top + below
                        func channel(_ t: UInt8, _ b: UInt8) -> UInt8 {
                            UInt8((Int(t) * top + Int(b) * below + alpha / 2) / alpha)
                        }
                        pixels[index * 4] = channel(text.red, under.red)
                        pixels[index * 4 + 1] = channel(text.green, under.green)
                        pixels[index * 4 + 2] = channel(text.blue, under.blue)
                        pixels[index * 4 + 3] = UInt8(alpha)
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func store(_ colour: OverlayColour, alpha: Int, at index: Int, in pixels: UnsafeMutableBufferPointer<UInt8>) {
        pixels[index * 4] = colour.red
        pixels[index * 4 + 1] = colour.green
        pixels[index * 4 + 2] = colour.blue
        pixels[index * 4 + 3] = UInt8(alpha)
    }

    /// The largest coverage within a disc of `radius` around each pixel: the outline's alpha.
    private static func dilate(_ coverage: [UInt8], width: Int, height: Int, radius: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: coverage.count)
        var offsets: [(dx: Int, dy: Int)] = []
        let reach = radius * radius + radius
        for dy in -radius...radius {
            for dx in -radius...radius where dx * dx + dy * dy <= reach {
                offsets.append((dx, dy))
            }
        }
        for y in 0..<height {
            for x in 0..<width {
                var best: UInt8 = 0
                for (dx, dy) in offsets {
                    let (sx, sy) = (x + dx, y + dy)
                    guard sx >= 0, sy >= 0, sx < width, sy < height else { continue }
                    best = max(best, coverage[sy * width + sx])
                }
                out[y * width + x] = best
            }
        }
        return out
    }
}
