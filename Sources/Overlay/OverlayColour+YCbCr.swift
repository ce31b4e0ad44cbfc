import Media

extension OverlayColour {
    /// Limited-range BT.601 Y, Cb, Cr, as the encoder signals its pictures.
    var ycbcr: (y: Int, cb: Int, cr: Int) {
        let (r, g, b) = (Int(red), Int(green), Int(blue))
        let y = 16 + (66 * r + 129 * g + 25 * b + 128) >> 8
        let cb = 128 + (-38 * r - 74 * g + 112 * b + 128) >> 8
        let cr = 128 + (112 * r - 94 * g - 18 * b + 128) >> 8
        return (y, cb, cr)
    }
}
