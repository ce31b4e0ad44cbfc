/// What a server sent that Camcast refuses to hand to librtmp (see `RTMPChunkReader`,
/// `RTMPCommandSummary`, `RTMPServerMessageGuard`). Each ends the connection attempt; the caller
/// retries with backoff like after any other failure.
///
/// The texts name sizes and counts only, never bytes the server chose, so they are safe to log.
enum RTMPProtocolViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// A message declared longer than `RTMPServerLimits.maximumMessageBytes`.
    case messageTooLong(declared: Int, limit: Int)
    /// More chunk streams with a message in progress than `RTMPServerLimits.maximumPartialMessages`.
    case tooManyPartialMessages(limit: Int)
    /// More chunk stream ids in use than `RTMPServerLimits.maximumChunkStreams`.
    case tooManyChunkStreams(limit: Int)
    /// Set Chunk Size 0, or with the top bit set (RTMP spec 1.0 §5.4.1: 31 bits, at least 1).
    case invalidChunkSize(UInt32)
    /// A protocol control or command message too short for its type.
    case truncatedMessage(type: UInt8, bytes: Int)
    /// AMF0 deeper than `RTMPServerLimits.maximumAMFDepth`.
    case amfTooDeep(limit: Int)
    /// More AMF0 values in one message than `RTMPServerLimits.maximumAMFValues`.
    case amfTooManyValues(limit: Int)
    /// AMF0 that is malformed or uses a type a server has no reason to send to a publisher.
    case amfMalformed(String)

    var description: String {
        switch self {
        case .messageTooLong(let declared, let limit):
            return "server message of \(declared) bytes exceeds the \(limit)-byte limit"
        case .tooManyPartialMessages(let limit):
            return "server interleaved more than \(limit) incomplete messages"
        case .tooManyChunkStreams(let limit):
            return "server used more than \(limit) chunk streams"
        case .invalidChunkSize(let size):
            return "server set an invalid chunk size \(size)"
        case .truncatedMessage(let type, let bytes):
            return "server message of type \(type) is too short (\(bytes) bytes)"
        case .amfTooDeep(let limit):
            return "server AMF0 data nested deeper than \(limit)"
        case .amfTooManyValues(let limit):
            return "server AMF0 data has more than \(limit) values"
        case .amfMalformed(let what):
            return "server AMF0 data malformed: \(what)"
        }
    }
}
