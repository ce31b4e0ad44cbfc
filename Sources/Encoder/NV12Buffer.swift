/// A scratch NV12 picture (Y plane, then interleaved U/V at half height) that libyuv writes into:
/// the layout x264 keeps its own pictures in, so x264 copies it without interleaving chroma.
/// Owns its memory and frees it in `deinit`. Width and height are even (only 4:2:0 and packed
/// 4:2:2 frames, which have even sizes, are converted into one).
final class NV12Buffer {
    let width: Int
    let height: Int
    private let storage: UnsafeMutableBufferPointer<UInt8>

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        storage = .allocate(capacity: width * height * 3 / 2)
        storage.initialize(repeating: 0)
    }

    deinit {
        storage.deallocate()
    }

    var y: UnsafeMutablePointer<UInt8> { storage.baseAddress! }
    var uv: UnsafeMutablePointer<UInt8> { y + width * height }

    /// The planes as x264 input (valid while this buffer lives). `luma` replaces this buffer's Y
    /// plane when the source's can be used as it is (NV21: only chroma needs swapping).
    func image(luma: X264InputImage.Plane? = nil) -> X264InputImage {
        X264InputImage(
            layout: .nv12,
            planes: [
                luma ?? .init(base: UnsafePointer(y), bytesPerRow: width),
                .init(base: UnsafePointer(uv), bytesPerRow: width),
            ])
    }

    /// Reuses `existing` if it has the wanted size.
    static func reusing(_ existing: NV12Buffer?, width: Int, height: Int) -> NV12Buffer {
        if let existing, existing.width == width, existing.height == height { return existing }
        return NV12Buffer(width: width, height: height)
    }
}
