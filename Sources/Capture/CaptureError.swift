import Media

/// Why a frame source could not start or keep running.
public enum CaptureError: Error, Equatable, CustomStringConvertible {
    case threadStartFailed(errno: Int32)
    case invalidSize(width: Int, height: Int, reason: String)
    case invalidFrameRate(String)
    case alreadyStarted
    /// No device node at the path (ENOENT/ENODEV/ENXIO): not plugged in, or the wrong path.
    case deviceNotFound(path: String)
    /// The node exists but a call on it failed (busy, permission, I/O error).
    case deviceFailed(path: String, call: String, errno: Int32, message: String)
    /// The node is not something Camcast can stream from (an output, metadata or radio node).
    case notACaptureDevice(path: String, reason: String)
    /// The configured pixel format is not offered; `offered` lists the FourCCs that are.
    case formatNotSupported(path: String, requested: String, offered: [String])
    /// The driver granted something Camcast cannot use (or, after a reopen, something other than
    /// what the running stream was configured with).
    case formatRejected(path: String, reason: String)
    case invalidSettings(String)
    /// A stopped source cannot start again (its input is used up); the reason says why.
    case cannotRestart(String)

    public var description: String {
        switch self {
        case .threadStartFailed(let errno):
            "could not start the capture thread: \(SystemCallError.message(errno)) (errno \(errno))"
        case .invalidSize(let width, let height, let reason):
            "invalid source size \(width)x\(height): \(reason)"
        case .invalidFrameRate(let rate):
            "invalid source frame rate \(rate): must be from 1/100 to \(FrameRate.maximumFramesPerSecond) fps"
        case .alreadyStarted:
            "the source was already started"
        case .deviceNotFound(let path):
            "no video device at \(path)"
        case .deviceFailed(let path, let call, let errno, let message):
            "\(path): \(call) failed: \(message) (errno \(errno))"
        case .notACaptureDevice(let path, let reason):
            "\(path) is not a video capture device: \(reason)"
        case .formatNotSupported(let path, let requested, let offered):
            "\(path) does not offer pixel format \(requested); it offers \(offered.joined(separator: ", "))"
        case .formatRejected(let path, let reason):
            "\(path): \(reason)"
        case .invalidSettings(let reason):
            "invalid capture settings: \(reason)"
        case .cannotRestart(let reason):
            "the source cannot start again: \(reason)"
        }
    }
}
