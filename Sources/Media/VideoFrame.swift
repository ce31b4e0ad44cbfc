/// Where one plane of a frame lies inside its buffer.
public struct VideoPlane: Sendable, Hashable {
    public var offset: Int
    public var bytesPerRow: Int

    public init(offset: Int, bytesPerRow: Int) {
        self.offset = offset
        self.bytesPerRow = bytesPerRow
    }
}

/// One uncompressed picture from a source, with the moment it was captured.
///
/// The pixels are either the frame's own (an array: the test pattern, a y4m file, a decoded MJPEG
/// frame) or borrowed from the source for one delivery (a camera's mapped buffer), which spares a
/// copy of every picture. Readers go through `withUnsafeBytes` and need not care which.
///
/// **A frame handed to `FrameSource`'s `deliver` is valid only until `deliver` returns.** A consumer
/// that keeps one longer keeps `owned()` instead: that copies a borrowed frame and costs nothing
/// for an owned one. Reading a borrowed frame after its delivery traps.
public struct VideoFrame: Sendable {
    public var width: Int
    public var height: Int
    public var pixelFormat: PixelFormat
    /// The planes inside the frame's bytes, in the order the pixel format defines them.
    public var planes: [VideoPlane]
    /// Capture time on CLOCK_MONOTONIC; becomes the encoder's PTS.
    public var timestamp: MonotonicTime
    /// The source's frame number; gaps mean the source dropped frames.
    public var sequence: UInt64
    /// A picture the source sends for a frame slot its camera left empty (the last good picture,
    /// the slate) instead of one it captured. The source has decided to fill that slot, often in
    /// a burst stamped in the past as it catches up, so the stream has no hole there only if the
    /// encoder gets it: the encoder stage waits for room for it rather than drop it
    /// (`EncoderStage.whenFull`). Conversion keeps it (`stampedLike`).
    public var isPlaceholder = false
    var pixels: Pixels

    enum Pixels: Sendable {
        case owned([UInt8])
        case borrowed(BorrowedPixels)
    }

    /// A frame that owns `bytes`.
    public init(
        width: Int, height: Int, pixelFormat: PixelFormat, planes: [VideoPlane], bytes: [UInt8],
        timestamp: MonotonicTime, sequence: UInt64
    ) {
        self.init(
            width: width, height: height, pixelFormat: pixelFormat, planes: planes, pixels: .owned(bytes),
            timestamp: timestamp, sequence: sequence)
    }

    /// A frame whose bytes stay the source's, readable until the source ends the loan.
    package init(
        width: Int, height: Int, pixelFormat: PixelFormat, planes: [VideoPlane], borrowing pixels: BorrowedPixels,
        timestamp: MonotonicTime, sequence: UInt64
    ) {
        self.init(
            width: width, height: height, pixelFormat: pixelFormat, planes: planes, pixels: .borrowed(pixels),
            timestamp: timestamp, sequence: sequence)
    }

    private init(
        width: Int, height: Int, pixelFormat: PixelFormat, planes: [VideoPlane], pixels: Pixels,
        timestamp: MonotonicTime, sequence: UInt64
    ) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.planes = planes
        self.pixels = pixels
        self.timestamp = timestamp
        self.sequence = sequence
    }
}

extension VideoFrame {
    /// Tightly packed I420 plane layout for a `width`×`height` picture (both even).
    public static func i420Planes(width: Int, height: Int) -> (planes: [VideoPlane], byteCount: Int) {
        let lumaSize = width * height
        let chromaWidth = width / 2
        let chromaSize = chromaWidth * (height / 2)
        return (
            [
                VideoPlane(offset: 0, bytesPerRow: width),
                VideoPlane(offset: lumaSize, bytesPerRow: chromaWidth),
                VideoPlane(offset: lumaSize + chromaSize, bytesPerRow: chromaWidth),
            ],
            lumaSize + 2 * chromaSize
        )
    }
}
