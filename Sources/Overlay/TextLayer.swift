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
        case .outline: padding = font.outlineRadius
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
        let outlined = if case .outline = style.contrast { true } else { false }
        let (coverage, outline) = Self.rasterise(
            scalars, font: font, padding: padding, width: width, height: height, outlined: outlined)
        pixels = [UInt8](repeating: 0, count: width * height * 4)
        compose(coverage: coverage, outline: outline, style: style)
    }

    /// The line's coverage in a `width` × `height` grid, the text `padding` in from its top-left,
    /// and with `outlined`, the outline's alpha: each glyph's cached mask copied where its glyph
    /// goes (no dilation here: a new second costs what the coverage does).
    static func rasterise(
        _ scalars: [Unicode.Scalar], font: FontFace, padding: Int, width: Int, height: Int, outlined: Bool
    ) -> (coverage: [UInt8], outline: [UInt8]?) {
        var coverage = [UInt8](repeating: 0, count: width * height)
        var outline = outlined ? [UInt8](repeating: 0, count: width * height) : []
        var pen = padding
        let baseline = padding + font.ascender
        for scalar in scalars {
            let glyph = font.glyph(for: scalar)
            let (x, y) = (pen + glyph.left, baseline - glyph.top)
            draw(glyph.coverage, width: glyph.width, rows: glyph.rows, at: x, y, into: &coverage, width: width, height: height)
            if outlined {
                let mask = font.outline(for: scalar)
                draw(mask.alpha, width: mask.width, rows: mask.rows, at: x - mask.radius, y - mask.radius, into: &outline, width: width, height: height)
            }
            pen += glyph.advance
        }
        return (coverage, outlined ? outline : nil)
    }

    /// Puts `bitmap` at (`x`, `y`), keeping the larger value where it overlaps what is there
    /// (glyphs that touch, outlines that meet), cut at the layer's edges.
    private static func draw(
        _ bitmap: [UInt8], width bitmapWidth: Int, rows: Int, at x: Int, _ y: Int, into layer: inout [UInt8], width: Int, height: Int
    ) {
        let columns = max(0, -x)..<min(bitmapWidth, width - x)
        guard !columns.isEmpty else { return }
        bitmap.withUnsafeBufferPointer { bitmap in
            layer.withUnsafeMutableBufferPointer { layer in
                for row in max(0, -y)..<max(max(0, -y), min(rows, height - y)) {
                    let (from, to) = (row * bitmapWidth, (y + row) * width + x)
                    for column in columns { layer[to + column] = max(layer[to + column], bitmap[from + column]) }
                }
            }
        }
    }

    private mutating func compose(coverage: [UInt8], outline: [UInt8]?, style: OverlayItem) {
        let background: (colour: OverlayColour, alpha: [UInt8])?
        switch style.contrast {
        case .none:
            background = nil
        case .outline(let colour):
            background = (colour, outline ?? [])
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
}
