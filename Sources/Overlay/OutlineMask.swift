/// A glyph's outline: the largest coverage within a disc of `radius` around each pixel, over the
/// glyph's bitmap grown by `radius` on every side. Made once per glyph and kept in `FontFace`'s
/// cache, so a clock's new second only copies its digits' masks (the outline of a line is the
/// largest of its glyphs' outlines, since a dilation of a maximum is the maximum of the dilations).
/// Issue 41: the whole line was dilated at every change, O(pixels × radius²) once a second.
struct OutlineMask {
    let radius: Int
    /// `glyph.width + 2 × radius` columns, `glyph.rows + 2 × radius` rows (none for an empty glyph).
    let width: Int
    let rows: Int
    /// `width` bytes a row, 0 (none) … 255.
    let alpha: [UInt8]

    init(_ glyph: Glyph, radius: Int) {
        self.radius = radius
        // A glyph with no pixels (a space) has no outline either.
        guard glyph.width > 0, glyph.rows > 0 else {
            (width, rows, alpha) = (0, 0, [])
            return
        }
        (width, rows) = (glyph.width + 2 * radius, glyph.rows + 2 * radius)
        alpha = Self.dilate(glyph.coverage, width: glyph.width, rows: glyph.rows, radius: radius)
    }

    /// The outline's thickness: about a sixteenth of the line, at least a pixel.
    static func radius(lineHeight: Int) -> Int { max(1, (lineHeight + 8) / 16) }

    /// The disc: every offset within `radius` (the boundary a little rounded out, as
    /// `r² + r`, so a radius of 1 takes the four neighbours and not the corners).
    static func disc(radius: Int) -> [(dx: Int, dy: Int)] {
        let reach = radius * radius + radius
        return (-radius...radius).flatMap { dy in
            (-radius...radius).compactMap { dx in dx * dx + dy * dy <= reach ? (dx, dy) : nil }
        }
    }

    /// The plain formula, once per glyph: for each pixel of the grown grid, the largest coverage
    /// of the glyph under the disc around it.
    private static func dilate(_ coverage: [UInt8], width: Int, rows: Int, radius: Int) -> [UInt8] {
        let (outWidth, outRows) = (width + 2 * radius, rows + 2 * radius)
        let offsets = disc(radius: radius)
        var out = [UInt8](repeating: 0, count: outWidth * outRows)
        for y in 0..<outRows {
            for x in 0..<outWidth {
                var best: UInt8 = 0
                for (dx, dy) in offsets {
                    // The glyph's own pixel under this offset (the grid is the glyph moved by radius).
                    let (sx, sy) = (x + dx - radius, y + dy - radius)
                    guard sx >= 0, sy >= 0, sx < width, sy < rows else { continue }
                    best = max(best, coverage[sy * width + sx])
                }
                out[y * outWidth + x] = best
            }
        }
        return out
    }
}
