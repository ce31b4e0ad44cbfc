import Media

/// One picture's memory in the conversion stage's pool: I420 (Y, U, V planes) or NV12 (Y, then
/// interleaved U/V), tightly packed, owned here and freed in `deinit`. Odd sizes are allowed (a
/// source frame converted before scaling may have them); chroma then rounds up.
///
/// `@unchecked Sendable`: a buffer is used by one thread at a time. It is taken out of the pool for
/// one conversion and the delivery after it, and put back only when that delivery returned. Debug
/// builds check it: the thread that makes a buffer or takes it from the pool owns it
/// (`confinement`), and every use of its memory or its painted geometry asserts that.
final class PictureBuffer: @unchecked Sendable {
    /// The thread that made it or last took it from the pool.
    let confinement = ThreadConfinement("the picture buffer's taker")
    let pixelFormat: PixelFormat
    let width: Int
    let height: Int
    let chromaWidth: Int
    let chromaHeight: Int
    let planes: [VideoPlane]
    /// Where the last scaled picture went in this buffer: the bars around it are painted again
    /// only when it changes (every frame rewrites the picture area alone).
    var paintedGeometry: ScaleGeometry? {
        get {
            confinement.assertOnOwner("reading a picture buffer's painted geometry")
            return painted
        }
        set {
            confinement.assertOnOwner("setting a picture buffer's painted geometry")
            painted = newValue
        }
    }
    private var painted: ScaleGeometry?
    private let storage: UnsafeMutableRawBufferPointer

    /// A buffer for `pixelFormat` (`.i420` or `.nv12`) at `width`×`height`.
    init(_ pixelFormat: PixelFormat, width: Int, height: Int) {
        precondition(pixelFormat == .i420 || pixelFormat == .nv12, "the pool holds I420 and NV12 pictures only")
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        chromaWidth = (width + 1) / 2
        chromaHeight = (height + 1) / 2
        let luma = width * height, chroma = chromaWidth * chromaHeight
        planes = pixelFormat == .i420
            ? [VideoPlane(offset: 0, bytesPerRow: width), VideoPlane(offset: luma, bytesPerRow: chromaWidth),
               VideoPlane(offset: luma + chroma, bytesPerRow: chromaWidth)]
            : [VideoPlane(offset: 0, bytesPerRow: width), VideoPlane(offset: luma, bytesPerRow: 2 * chromaWidth)]
        storage = .allocate(byteCount: luma + 2 * chroma, alignment: 64)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
        confinement.bindToCurrentThread()
    }

    deinit {
        storage.deallocate()
    }

    func fits(_ pixelFormat: PixelFormat, width: Int, height: Int) -> Bool {
        self.pixelFormat == pixelFormat && self.width == width && self.height == height
    }

    /// Plane `index`'s first byte.
    func plane(_ index: Int) -> UnsafeMutablePointer<UInt8> {
        confinement.assertOnOwner("a picture buffer's plane")
        return (storage.baseAddress! + planes[index].offset).assumingMemoryBound(to: UInt8.self)
    }

    /// Plane `index` as a libyuv source.
    func source(_ index: Int) -> SourcePlane {
        SourcePlane(base: UnsafePointer(plane(index)), bytesPerRow: planes[index].bytesPerRow)
    }

    /// The buffer as a frame stamped like `source` (its time, number and whether it is a
    /// placeholder), its bytes lent writable (the overlay draws on them in place) until the
    /// returned loan ends.
    func frame(stampedLike source: VideoFrame) -> (frame: VideoFrame, loan: BorrowedPixels) {
        confinement.assertOnOwner("lending a picture buffer's memory")
        let loan = BorrowedPixels(UnsafeRawBufferPointer(storage), writable: true)
        var frame = VideoFrame(
            width: width, height: height, pixelFormat: pixelFormat, planes: planes, borrowing: loan,
            timestamp: source.timestamp, sequence: source.sequence)
        frame.isPlaceholder = source.isPlaceholder
        return (frame, loan)
    }
}

/// Where one plane of a picture libyuv reads lies in memory.
struct SourcePlane {
    var base: UnsafePointer<UInt8>
    var bytesPerRow: Int

    /// The byte of column `x`, row `y` (in this plane's samples).
    func at(x: Int, y: Int) -> UnsafePointer<UInt8> { base + y * bytesPerRow + x }
}
