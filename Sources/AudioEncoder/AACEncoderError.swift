import Media

/// Why an AAC session could not be opened or could not encode, with libavcodec's own words.
public enum AACEncoderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The settings cannot be encoded (every problem listed).
    case invalidSettings([String])
    /// libavcodec refused to open its encoder (`code` is the AVERROR).
    case openFailed(code: Int32, message: String)
    /// A libavcodec call failed while encoding or draining.
    case encodeFailed(call: String, code: Int32, message: String)
    /// A frame in another format than the session was opened with.
    case formatMismatch(expected: AudioFormat, got: AudioFormat)
    /// The session was closed or flushed.
    case closed

    public var description: String {
        switch self {
        case .invalidSettings(let problems): "invalid AAC settings: \(problems.joined(separator: "; "))"
        case .openFailed(let code, let message): "could not open the AAC encoder: \(message) (AVERROR \(code))"
        case .encodeFailed(let call, let code, let message): "AAC encoding failed: \(call): \(message) (AVERROR \(code))"
        case .formatMismatch(let expected, let got): "audio frame is \(got), the AAC encoder was opened for \(expected)"
        case .closed: "the AAC encoder is closed"
        }
    }
}
