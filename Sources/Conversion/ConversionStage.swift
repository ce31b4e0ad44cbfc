#if canImport(Glibc)
import Glibc
#endif
import Media
import Synchronization

/// The stage between the source and the encoder that turns any raw frame into the encoder's
/// picture: I420 or NV12 at the stream's size, scaled as `ScalingMode` says. It runs on the
/// capture thread, before the overlay (which then draws on the very planes the encoder reads, at
/// the stream's geometry) and outside every encoder lock.
///
/// - A frame that already is the encoder's picture (I420 or NV12 at the stream's size) goes on
///   untouched: no copy, still borrowed from the driver when it was. YV12 too, as I420 with its
///   U and V planes named the other way round.
/// - NV21 and packed 4:2:2 (YUYV, UYVY) at the stream's size become NV12, x264's own layout, so its
///   input copy does not interleave chroma again; RGB becomes I420. For an encoder that reads
///   planar I420 only (x265: `planar`), every one of them becomes I420, NV12 included.
/// - A frame of another size is converted to I420 at its own size (unless it is I420 already) and
///   scaled with libyuv's bilinear filter, black bars painted where `fit` leaves them.
///
/// The pictures it makes come from a small pool of buffers (one per delivery in progress, and the
/// source-sized scratch picture a scale reads), reused frame after frame without a lock
/// (`PictureBufferPool`); no lock is held across the call into the next stage.
public final class ConversionStage: Sendable {
    /// The stream's size: every frame leaves at it.
    public let size: VideoSize
    public let scaling: ScalingMode
    private let pool = PictureBufferPool(capacity: ConversionStage.poolLimit)
    /// Frames seen, those that had to be converted or scaled (the others went on untouched), the
    /// capture thread's CPU time converting them, and buffers made (the stop summary reads these).
    private let frames = Atomic<Int>(0)
    private let converted = Atomic<Int>(0)
    private let convertingNanoseconds = Atomic<Int>(0)
    private let buffersMade = Atomic<Int>(0)

    /// Buffers kept for reuse; more only while that many deliveries run at once (a source swap).
    static let poolLimit = 4

    public init(size: VideoSize, scaling: ScalingMode) {
        self.size = size
        self.scaling = scaling
    }

    /// Frames seen and converted so far, the CPU time converting took, and picture buffers
    /// allocated for them (a steady stream allocates one or two, then reuses them).
    public var cost: (frames: Int, framesConverted: Int, cpuNanoseconds: Int, buffersMade: Int) {
        (frames.load(ordering: .relaxed), converted.load(ordering: .relaxed),
         convertingNanoseconds.load(ordering: .relaxed), buffersMade.load(ordering: .relaxed))
    }

    private static func threadCPUNanoseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }

    /// Calls `next` with `frame` as the encoder's picture. The picture is valid only inside `next`
    /// (a converted one is lent from the pool, and reading it later traps); `next` may write into
    /// it in place, and must put back what it wrote if the frame came through untouched (its
    /// source may repeat the buffer). Throws `ConversionError` for a frame it cannot read, and
    /// whatever `next` throws. `planar`: the encoder reads I420 only.
    public func convert<R>(_ frame: VideoFrame, planar: Bool = false, then next: (VideoFrame) throws -> R) throws -> R {
        guard frame.requiredPlanes != nil else { throw ConversionError.unsupportedPixelFormat(frame.pixelFormat) }
        if let problem = frame.layoutProblem { throw ConversionError.invalidFrame(problem) }
        frames.add(1, ordering: .relaxed)
        if let ready = Self.asEncoderPicture(frame, size: size, planar: planar) { return try next(ready) }
        let start = Self.threadCPUNanoseconds()
        let output = try frame.withUnsafeBytes { (bytes) throws(ConversionError) in
            // layoutProblem saw every plane inside a non-empty buffer. A driver's mapping is untyped
            // memory: bind it to the bytes libyuv reads it as.
            let base = bytes.bindMemory(to: UInt8.self).baseAddress!
            let planes = frame.planes.map { SourcePlane(base: base + $0.offset, bytesPerRow: $0.bytesPerRow) }
            return try picture(of: frame, planes: planes, planar: planar)
        }
        converted.add(1, ordering: .relaxed)
        convertingNanoseconds.add(Self.threadCPUNanoseconds() - start, ordering: .relaxed)
        defer { giveBack(output) }
        let (made, loan) = output.frame(stampedLike: frame)
        defer { loan.endLoan() }
        return try next(made)
    }

    /// `frame` itself when the encoder can read it as it is (YV12 renamed as I420); nil otherwise.
    static func asEncoderPicture(_ frame: VideoFrame, size: VideoSize, planar: Bool = false) -> VideoFrame? {
        guard frame.width == size.width, frame.height == size.height else { return nil }
        switch frame.pixelFormat {
        case .i420:
            return frame
        case .nv12 where !planar:
            return frame
        case .yv12:
            // Same planes as I420 in the order Y, V, U: naming them the other way is the conversion.
            var renamed = frame
            renamed.pixelFormat = .i420
            renamed.planes = [frame.planes[0], frame.planes[2], frame.planes[1]]
            return renamed
        default:
            return nil
        }
    }

    /// A buffer for `pixelFormat` at `width`×`height` from the pool, or a new one.
    func takeBuffer(_ pixelFormat: PixelFormat, width: Int, height: Int) -> PictureBuffer {
        if let reused = pool.take(pixelFormat, width: width, height: height) { return reused }
        buffersMade.add(1, ordering: .relaxed)
        return PictureBuffer(pixelFormat, width: width, height: height)
    }

    /// Puts `buffer` back for the next frame; another goes when the pool is full (a size change).
    func giveBack(_ buffer: PictureBuffer) {
        pool.giveBack(buffer)
    }
}
