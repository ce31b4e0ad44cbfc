import Media

/// A picture ready for x264: 4:2:0 planes at the encode size, borrowed for one encode call.
///
/// The pointers are only valid inside the `withUnsafeBytes` call that produced this value (see
/// `EncoderSession.encode`).
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

    init(layout: Layout, planes: [Plane]) {
        self.layout = layout
        self.planes = planes
    }

    /// The planes of an I420 or NV12 `frame` whose bytes are `bytes`, straight from them (a
    /// borrowed frame: straight from the camera driver's buffer; x264 copies them into its own
    /// picture). The session checked the format and the layout first.
    init(_ frame: VideoFrame, bytes: UnsafeRawBufferPointer) {
        // checkInput saw every plane inside a non-empty buffer. A driver's mapping is untyped
        // memory: bind it to the bytes x264 reads it as.
        let base = bytes.bindMemory(to: UInt8.self).baseAddress!
        let all = frame.planes.map { Plane(base: base + $0.offset, bytesPerRow: $0.bytesPerRow) }
        switch frame.pixelFormat {
        case .nv12: self.init(layout: .nv12, planes: Array(all.prefix(2)))
        default: self.init(layout: .i420, planes: Array(all.prefix(3)))
        }
    }
}
