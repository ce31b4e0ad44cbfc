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
public struct VideoFrame: Sendable {
    public var width: Int
    public var height: Int
    public var pixelFormat: PixelFormat
    /// The planes inside `bytes`, in the order the pixel format defines them.
    public var planes: [VideoPlane]
    public var bytes: [UInt8]
    /// Capture time on CLOCK_MONOTONIC; becomes the encoder's PTS.
    public var timestamp: MonotonicTime
    /// The source's frame number; gaps mean the source dropped frames.
    public var sequence: UInt64

    public init(
        width: Int, height: Int, pixelFormat: PixelFormat, planes: [VideoPlane], bytes: [UInt8],
        timestamp: MonotonicTime, sequence: UInt64
    ) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.planes = planes
        self.bytes = bytes
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
