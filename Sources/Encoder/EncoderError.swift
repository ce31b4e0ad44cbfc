import Media

/// Why an encoder session could not do what was asked.
public enum EncoderError: Error, Hashable, CustomStringConvertible {
    /// The settings have problems; all of them are listed.
    case invalidSettings([EncoderSettingsProblem])
    /// x264 or x265 refused to open (its own log says why, at error level), or a libavcodec
    /// encoder did (the text carries what libavcodec logged).
    case openFailed(String)
    /// The session was closed, or failed for good after its recovery attempts.
    case closed
    /// `x264_encoder_encode` / `x265_encoder_encode` returned a negative status.
    case encodeFailed(status: Int)
    /// The library returned NAL data that does not parse as length-prefixed NAL units.
    case malformedOutput(String)
    /// `x264_encoder_reconfig` / `x265_encoder_reconfig` returned a negative status.
    case reconfigureFailed(status: Int)
    /// The encoder takes only I420 and NV12 (the conversion stage turns every other format into one).
    case unsupportedPixelFormat(PixelFormat)
    /// The encoder cannot change its bitrate while it runs (a libavcodec encoder that reads
    /// `bit_rate` at open only): the stream keeps the rate it was opened with.
    case bitrateChangeUnsupported(encoder: String, kbps: Int)
    /// The frame is not at the stream's size (the conversion stage scales it first).
    case frameSizeMismatch(frame: VideoSize, stream: VideoSize)
    /// The frame's planes do not fit its buffer, or its size is not positive.
    case invalidFrame(String)
    /// A libyuv conversion returned non-zero (x265's NV12 to I420).
    case conversionFailed(function: String, status: Int)

    public var description: String {
        switch self {
        case .invalidSettings(let problems):
            "invalid encoder settings: " + problems.map(\.description).joined(separator: "; ")
        case .openFailed(let reason): "encoder did not open: \(reason)"
        case .closed: "encoder session is closed"
        case .encodeFailed(let status): "encoding a picture failed with status \(status)"
        case .malformedOutput(let reason): "encoder output is malformed: \(reason)"
        case .reconfigureFailed(let status): "encoder reconfiguration failed with status \(status)"
        case .bitrateChangeUnsupported(let encoder, let kbps):
            "\(encoder) cannot change its bitrate while it runs (libavcodec applies it at open only); it keeps \(kbps) kbit/s"
        case .unsupportedPixelFormat(let format):
            "the encoder does not take \(format.rawValue) frames, only I420 and NV12 (convert them first)"
        case .frameSizeMismatch(let frame, let stream):
            "the encoder takes \(stream) frames, this one is \(frame) (scale it first)"
        case .invalidFrame(let reason): "invalid frame: \(reason)"
        case .conversionFailed(let function, let status): "libyuv \(function) failed with status \(status)"
        }
    }
}
