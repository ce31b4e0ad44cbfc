/// A picture as 8-bit R, G, B, row after row: what an operator's slate image decodes to.
public struct RGBPicture: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// `width * height * 3` bytes.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3, "an RGB picture needs width × height × 3 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
