import Media

/// Why a YUV4MPEG2 stream could not be read. Descriptions are single lines, safe to log.
public enum Y4MError: Error, Equatable, CustomStringConvertible {
    /// The stream does not start with the `YUV4MPEG2 ` signature.
    case notYUV4MPEG2
    /// The header (or a FRAME line) did not end with a newline within the length Camcast accepts.
    case lineTooLong(limit: Int)
    /// The stream ended inside the stream header.
    case truncatedHeader
    /// A required header parameter (`W`, `H` or `F`) is missing.
    case missingParameter(Character)
    /// A parameter's value is malformed or out of range.
    case invalidParameter(Character, value: String)
    /// The colour space is valid YUV4MPEG2 but not 8-bit 4:2:0, the only one Camcast plays.
    case unsupportedColourSpace(String)
    /// A frame does not start with `FRAME`.
    case missingFrameMarker(frame: UInt64)
    /// The stream ended inside frame `frame`: `received` of `expected` picture bytes arrived.
    case truncatedFrame(frame: UInt64, received: Int, expected: Int)
    /// The stream has a header but not one frame.
    case noFrames
    /// A looping clip had no frame when played again from its start: cut shorter or replaced.
    case emptyWhenLooped
    /// A read waiting for data was interrupted because the source is stopping.
    case interrupted
    /// open/read/lseek failed.
    case systemCallFailed(path: String, call: String, errno: Int32)

    public var description: String {
        switch self {
        case .notYUV4MPEG2:
            "not a YUV4MPEG2 (.y4m) stream: it does not start with \"YUV4MPEG2 \""
        case .lineTooLong(let limit):
            "y4m header line longer than \(limit) bytes"
        case .truncatedHeader:
            "y4m stream ended inside its header"
        case .missingParameter(let name):
            "y4m header has no \(name) parameter"
        case .invalidParameter(let name, let value):
            "y4m header parameter \(name) has an invalid value '\(value)'"
        case .unsupportedColourSpace(let name):
            "y4m colour space \(name) is not supported (only 8-bit 4:2:0: 420jpeg, 420mpeg2, 420paldv, 420)"
        case .missingFrameMarker(let frame):
            "y4m frame \(frame) does not start with FRAME"
        case .truncatedFrame(let frame, let received, let expected):
            "y4m stream ended inside frame \(frame) (\(received) of \(expected) bytes)"
        case .interrupted:
            "reading was interrupted by a stop"
        case .noFrames:
            "y4m stream has a header but no frames"
        case .emptyWhenLooped:
            "y4m clip had no frame when played again from its start: it was cut shorter or replaced while playing (a restart plays the new file)"
        case .systemCallFailed(let path, let call, let errno):
            "\(path): \(call) failed: \(SystemCallError.message(errno)) (errno \(errno))"
        }
    }
}
