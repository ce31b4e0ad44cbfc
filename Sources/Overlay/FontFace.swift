internal import CFreeType

#if canImport(Glibc)
import Glibc
#endif

/// A font file opened with FreeType at one pixel size, and the glyphs drawn so far.
///
/// Each character is rasterised once (`glyph(for:)` caches it); a clock that changes every second
/// only looks its digits up again. One instance belongs to one renderer, used by one thread at a
/// time (FreeType's faces are not thread-safe), so it has a library of its own.
final class FontFace {
    private let library: OpaquePointer
    private let face: FT_Face
    private var cache: [Unicode.Scalar: Glyph] = [:]
    /// Each glyph's outline at this size's radius, grown once on first use (issue 41).
    private var outlines: [Unicode.Scalar: OutlineMask] = [:]
    /// Baseline to the top of the tallest glyph, and to the bottom of the lowest, in pixels.
    let ascender: Int
    let descender: Int
    var lineHeight: Int { ascender + descender }

    /// Opens `path` so that a line (ascender to descender) is about `height` pixels.
    init(path: String, height: Int) throws(OverlayError) {
        // FreeType's own message for a missing file is "cannot open resource": say it plainly first.
        guard access(path, F_OK) == 0 else { throw .font(path: path, reason: "no such file") }
        guard access(path, R_OK) == 0 else { throw .font(path: path, reason: "cannot be read (check its permissions)") }
        var library: OpaquePointer?
        let status = FT_Init_FreeType(&library)
        guard status == 0, let library else { throw .library(code: status) }
        var face: FT_Face?
        let opened = FT_New_Face(library, path, 0, &face)
        guard opened == 0, let face else {
            FT_Done_FreeType(library)
            throw .font(path: path, reason: opened == 2 ? "not a font file FreeType can read" : "FreeType error \(opened)")
        }
        // The em is not the line: measure the line at `height` and scale the em to fit.
        var ascent = 0, descent = 0
        for attempt in 0..<2 {
            let em = attempt == 0 ? height : max(1, height * height / max(1, ascent + descent))
            guard FT_Set_Pixel_Sizes(face, 0, FT_UInt(em)) == 0 else {
                FT_Done_Face(face)
                FT_Done_FreeType(library)
                throw .fontSize(path: path, height: height)
            }
            let metrics = face.pointee.size.pointee.metrics
            ascent = Int(metrics.ascender + 63) >> 6
            descent = Int(-metrics.descender + 63) >> 6
        }
        self.library = library
        self.face = face
        ascender = ascent
        descender = descent
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// The glyph for `scalar`, rasterised on first use. A character the font lacks gets the font's
    /// missing-glyph box, as any text renderer shows it.
    func glyph(for scalar: Unicode.Scalar) -> Glyph {
        if let cached = cache[scalar] { return cached }
        let drawn = rasterise(scalar)
        cache[scalar] = drawn
        return drawn
    }

    /// The outline around `scalar`'s glyph, made on first use.
    func outline(for scalar: Unicode.Scalar) -> OutlineMask {
        if let cached = outlines[scalar] { return cached }
        let made = OutlineMask(glyph(for: scalar), radius: outlineRadius)
        outlines[scalar] = made
        return made
    }

    /// How far an outline reaches beyond its glyph at this size.
    var outlineRadius: Int { OutlineMask.radius(lineHeight: lineHeight) }

    var cachedGlyphCount: Int { cache.count }
    var cachedOutlineCount: Int { outlines.count }

    private func rasterise(_ scalar: Unicode.Scalar) -> Glyph {
        guard FT_Load_Char(face, FT_ULong(scalar.value), cft_load_render()) == 0, let slot = face.pointee.glyph else {
            return Glyph(width: 0, rows: 0, coverage: [], left: 0, top: 0, advance: lineHeight / 2)
        }
        let bitmap = slot.pointee.bitmap
        let (width, rows, pitch) = (Int(bitmap.width), Int(bitmap.rows), Int(bitmap.pitch))
        var coverage = [UInt8](repeating: 0, count: width * rows)
        if let buffer = bitmap.buffer, width > 0, rows > 0 {
            for row in 0..<rows {
                // A negative pitch means the rows run bottom-up in memory.
                let source = pitch >= 0 ? buffer + row * pitch : buffer + (rows - 1 - row) * -pitch
                for column in 0..<width { coverage[row * width + column] = source[column] }
            }
        }
        return Glyph(
            width: width, rows: rows, coverage: coverage, left: Int(slot.pointee.bitmap_left),
            top: Int(slot.pointee.bitmap_top), advance: Int(slot.pointee.advance.x + 32) >> 6)
    }
}
