/// A picture ready for x264: 4:2:0 planes at the encode size, borrowed for one encode call.
///
/// The pointers are only valid inside the closure that produced this value (see `FrameConverter`).
struct X264InputImage {
    enum Layout {
        /// Y, U, V planes.
        case i420
        /// Y plane, then interleaved U/V.
        case nv12
    }

    struct Plane {
        var base: UnsafePointer<UInt8>
        var bytesPerRow: Int
    }

    var layout: Layout
    var planes: [Plane]
}
