/// One character rasterised by FreeType: 8-bit coverage, where it sits against the pen, and how
/// far it moves the pen. Kept in `FontFace`'s cache, so each character is rasterised once.
struct Glyph {
    var width: Int
    var rows: Int
    /// Coverage, `width` bytes a row, 0 (none) … 255 (fully inside the glyph).
    var coverage: [UInt8]
    /// From the pen to the bitmap's left edge.
    var left: Int
    /// From the baseline up to the bitmap's top row.
    var top: Int
    /// Pen advance in whole pixels.
    var advance: Int
}
