/// Which encoder a session runs for its codec: the codec's own library, linked in (libx264 for
/// H.264, libx265 for H.265), or a named libavcodec encoder fed software frames — the hardware
/// encoders libavcodec wraps (h264_v4l2m2m on a Raspberry Pi, h264_nvenc, h264_qsv, h264_omx) or
/// libavcodec's own libx264 wrapper. Written `x264`/`x265`/`auto` and `avcodec:NAME` in settings.
public enum EncoderImplementation: Sendable, Hashable, CustomStringConvertible {
    /// libx264 or libx265 directly (`X264Encoder`, `X265Encoder`).
    case library
    /// The libavcodec encoder of this name (`AVCodecEncoder`).
    case avcodec(String)

    /// The prefix that names a libavcodec encoder: `avcodec:h264_v4l2m2m`.
    public static let avcodecPrefix = "avcodec:"

    /// `auto`, `x264`, `x265` (the codec's library) or `avcodec:NAME`; nil for anything else.
    /// Whether NAME is an encoder libavcodec has is `EncoderSettings.validate()`'s question.
    public init?(parsing text: String) {
        switch text {
        case "auto", "x264", "x265", "libx264", "libx265": self = .library
        default:
            guard text.hasPrefix(Self.avcodecPrefix) else { return nil }
            self = .avcodec(String(text.dropFirst(Self.avcodecPrefix.count)))
        }
    }

    public var description: String {
        switch self {
        case .library: "auto"
        case .avcodec(let name): Self.avcodecPrefix + name
        }
    }
}
