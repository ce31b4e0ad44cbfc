/// A scratch I420 picture that libyuv writes into; owns its memory and frees it in `deinit`.
///
/// Odd sizes are allowed (a source frame may have them); chroma planes then round up.
final class I420Buffer {
    let width: Int
    let height: Int
    let chromaWidth: Int
    let chromaHeight: Int
    private let storage: UnsafeMutableBufferPointer<UInt8>

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        chromaWidth = (width + 1) / 2
        chromaHeight = (height + 1) / 2
        storage = .allocate(capacity: width * height + 2 * chromaWidth * chromaHeight)
        storage.initialize(repeating: 0)
    }

    deinit {
        storage.deallocate()
    }

    var y: UnsafeMutablePointer<UInt8> { storage.baseAddress! }
    var u: UnsafeMutablePointer<UInt8> { y + width * height }
    var v: UnsafeMutablePointer<UInt8> { u + chromaWidth * chromaHeight }

    /// The planes as x264 input (valid while this buffer lives).
    var image: X264InputImage {
        X264InputImage(
            layout: .i420,
            planes: [
                .init(base: UnsafePointer(y), bytesPerRow: width),
                .init(base: UnsafePointer(u), bytesPerRow: chromaWidth),
                .init(base: UnsafePointer(v), bytesPerRow: chromaWidth),
            ])
    }

    /// Reuses `existing` if it has the wanted size.
    static func reusing(_ existing: I420Buffer?, width: Int, height: Int) -> I420Buffer {
        if let existing, existing.width == width, existing.height == height { return existing }
        return I420Buffer(width: width, height: height)
    }
}
