import Media

extension TextLayer {
    /// An opaque layer the size of the frame: `picture` stretched to it (nearest pixel: a slate is
    /// drawn once, and a JPEG's blocks hide the difference), or `fill` where there is none.
    init(picture: RGBPicture?, width: Int, height: Int, fill: OverlayColour) {
        self.width = width & ~1
        self.height = height & ~1
        var pixels = [UInt8](repeating: 255, count: self.width * self.height * 4)
        for y in 0..<self.height {
            for x in 0..<self.width {
                let out = (y * self.width + x) * 4
                if let picture {
                    let source = ((y * picture.height / self.height) * picture.width + x * picture.width / self.width) * 3
                    pixels[out] = picture.pixels[source]
                    pixels[out + 1] = picture.pixels[source + 1]
                    pixels[out + 2] = picture.pixels[source + 2]
                } else {
                    (pixels[out], pixels[out + 1], pixels[out + 2]) = (fill.red, fill.green, fill.blue)
                }
            }
        }
        self.pixels = pixels
    }
}
