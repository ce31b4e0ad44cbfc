import Media

/// Why an audio source could not start, in words a user can act on.
public enum AudioCaptureError: Error, Equatable, Sendable, CustomStringConvertible {
    case alreadyStarted
    case threadStartFailed(errno: Int32)
    /// The format asked for is not usable (no rate, too many channels).
    case invalidFormat(String)
    /// The WAV file cannot be opened or read.
    case fileUnreadable(path: String, errno: Int32)
    /// The WAV file is not one Camcast can play (what is wrong and where).
    case badWAV(path: String, WAVError)
    /// libswresample refused to convert the file's format to the configured one.
    case resamplerFailed(code: Int32, message: String)
    /// No ALSA device by that name (or its card is absent).
    case deviceNotFound(device: String, code: Int32, message: String)
    /// The device exists but is in use by another program.
    case deviceBusy(device: String, code: Int32, message: String)
    /// The device refused the format (`what`: which parameter), with ALSA's words.
    case formatRefused(device: String, what: String, code: Int32, message: String)
    /// Any other ALSA call that failed while opening the device.
    case deviceFailed(device: String, call: String, code: Int32, message: String)

    public var description: String {
        switch self {
        case .alreadyStarted: "the audio source is already running"
        case .threadStartFailed(let errno): "could not start the audio thread: \(SystemCallError.message(errno)) (errno \(errno))"
        case .invalidFormat(let why): "invalid audio format: \(why)"
        case .fileUnreadable(let path, let errno): "cannot read WAV file \(path): \(SystemCallError.message(errno)) (errno \(errno))"
        case .badWAV(let path, let error): "WAV file \(path): \(error)"
        case .resamplerFailed(let code, let message): "cannot resample the WAV file: \(message) (AVERROR \(code))"
        case .deviceNotFound(let device, let code, let message): "ALSA device \(device) not found: \(message) (\(code))"
        case .deviceBusy(let device, let code, let message): "ALSA device \(device) is busy (used by another program): \(message) (\(code))"
        case .formatRefused(let device, let what, let code, let message):
            "ALSA device \(device) refused \(what): \(message) (\(code)); a plughw: device converts rates and channels"
        case .deviceFailed(let device, let call, let code, let message): "ALSA device \(device): \(call) failed: \(message) (\(code))"
        }
    }
}

extension AudioCaptureError {
    /// Whether an ALSA device that fails to open this way at start cannot be mended by waiting: a
    /// format it refuses stays refused. Not found, busy or failing may change a second later.
    public var isFinalAtStart: Bool {
        switch self {
        case .deviceNotFound, .deviceBusy, .deviceFailed: false
        default: true
        }
    }

    /// Short words for the status line while silence stands in: "not found", "busy".
    var absenceReason: String {
        switch self {
        case .deviceNotFound: "not found"
        case .deviceBusy: "busy"
        default: "unavailable"
        }
    }
}
