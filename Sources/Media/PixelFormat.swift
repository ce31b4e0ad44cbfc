/// The pixel layouts Camcast accepts from a source, named by their V4L2 FourCC.
public enum PixelFormat: String, Sendable, CaseIterable, Hashable {
    /// Planar 4:2:0, Y then U then V (V4L2 `YU12`); what x264 takes natively.
    case i420 = "YU12"
    /// Planar 4:2:0, Y then V then U.
    case yv12 = "YV12"
    /// Y plane then interleaved U/V (4:2:0); x264 takes it natively.
    case nv12 = "NV12"
    /// Y plane then interleaved V/U (4:2:0).
    case nv21 = "NV21"
    /// Packed 4:2:2, Y0 U Y1 V.
    case yuyv = "YUYV"
    /// Packed 4:2:2, U Y0 V Y1.
    case uyvy = "UYVY"
    /// Packed 8-bit R, G, B.
    case rgb24 = "RGB3"
    /// Packed 8-bit B, G, R.
    case bgr24 = "BGR3"
    /// Packed 32-bit, bytes in memory B, G, R, A (V4L2_PIX_FMT_ABGR32, FourCC `AR24`).
    case bgra32 = "AR24"
    /// Motion JPEG, one JPEG image per frame.
    case mjpeg = "MJPG"

    /// The four-character code as the little-endian 32-bit value V4L2 uses.
    public var fourCC: UInt32 {
        let bytes = Array(rawValue.utf8)
        return UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
    }

    public init?(fourCC: UInt32) {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: fourCC >> ($0 * 8)) }
        guard let match = PixelFormat.allCases.first(where: { Array($0.rawValue.utf8) == bytes }) else { return nil }
        self = match
    }

    /// Whether the frame has subsampled chroma in both directions, so width and height must be even.
    public var isChromaSubsampled420: Bool {
        switch self {
        case .i420, .yv12, .nv12, .nv21: true
        default: false
        }
    }
}
