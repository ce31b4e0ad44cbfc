import Media

/// One colour component of a pixel format as it lies in memory: which plane, how far chroma is
/// subsampled, and where each sample sits in a row. One table covers every format a source hands
/// the encoder, so blending is one loop, not one per format.
struct PixelComponent {
    enum Kind {
        case luma, cb, cr, red, green, blue
    }

    var kind: Kind
    var plane: Int
    /// log2 of the horizontal and vertical subsampling (1 for 4:2:0 chroma across and down).
    var xShift: Int
    var yShift: Int
    /// Bytes from one sample of this component to the next in a row.
    var step: Int
    /// Byte of the first sample in a row.
    var offset: Int

    /// The components of `format`, or nil for one that is not raw pixels (MJPEG).
    static func of(_ format: PixelFormat) -> [PixelComponent]? {
        switch format {
        case .i420: planar(u: 1, v: 2)
        case .yv12: planar(u: 2, v: 1)
        case .nv12: semiPlanar(u: 0, v: 1)
        case .nv21: semiPlanar(u: 1, v: 0)
        case .yuyv: packed422(y: 0, u: 1, v: 3)
        case .uyvy: packed422(y: 1, u: 0, v: 2)
        case .rgb24: rgb(step: 3, red: 0, green: 1, blue: 2)
        case .bgr24: rgb(step: 3, red: 2, green: 1, blue: 0)
        case .bgra32: rgb(step: 4, red: 2, green: 1, blue: 0)
        case .mjpeg: nil
        }
    }

    private static let luma = PixelComponent(kind: .luma, plane: 0, xShift: 0, yShift: 0, step: 1, offset: 0)

    private static func planar(u: Int, v: Int) -> [PixelComponent] {
        [luma, .init(kind: .cb, plane: u, xShift: 1, yShift: 1, step: 1, offset: 0),
         .init(kind: .cr, plane: v, xShift: 1, yShift: 1, step: 1, offset: 0)]
    }

    private static func semiPlanar(u: Int, v: Int) -> [PixelComponent] {
        [luma, .init(kind: .cb, plane: 1, xShift: 1, yShift: 1, step: 2, offset: u),
         .init(kind: .cr, plane: 1, xShift: 1, yShift: 1, step: 2, offset: v)]
    }

    private static func packed422(y: Int, u: Int, v: Int) -> [PixelComponent] {
        [.init(kind: .luma, plane: 0, xShift: 0, yShift: 0, step: 2, offset: y),
         .init(kind: .cb, plane: 0, xShift: 1, yShift: 0, step: 4, offset: u),
         .init(kind: .cr, plane: 0, xShift: 1, yShift: 0, step: 4, offset: v)]
    }

    private static func rgb(step: Int, red: Int, green: Int, blue: Int) -> [PixelComponent] {
        [.init(kind: .red, plane: 0, xShift: 0, yShift: 0, step: step, offset: red),
         .init(kind: .green, plane: 0, xShift: 0, yShift: 0, step: step, offset: green),
         .init(kind: .blue, plane: 0, xShift: 0, yShift: 0, step: step, offset: blue)]
    }
}
