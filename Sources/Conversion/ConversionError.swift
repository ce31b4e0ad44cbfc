import Media

/// Why a frame could not be turned into the encoder's picture.
public enum ConversionError: Error, Hashable, CustomStringConvertible {
    /// Not raw pixels (MJPEG is decoded by its source, not here).
    case unsupportedPixelFormat(PixelFormat)
    /// The frame's planes do not fit its buffer, or its size is not positive.
    case invalidFrame(String)
    /// A libyuv conversion or scale returned non-zero.
    case libyuvFailed(function: String, status: Int)

    public var description: String {
        switch self {
        case .unsupportedPixelFormat(let format): "\(format.rawValue) frames cannot be converted for the encoder"
        case .invalidFrame(let reason): "invalid frame: \(reason)"
        case .libyuvFailed(let function, let status): "libyuv \(function) failed with status \(status)"
        }
    }
}
