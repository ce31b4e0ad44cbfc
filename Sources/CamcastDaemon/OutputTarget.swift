import RTMP

/// Where the encoded stream goes. One run may have several.
public enum OutputTarget: Sendable, Hashable, CustomStringConvertible {
    /// Publish to an RTMP server.
    case rtmp(RTMPURL)
    /// Write an `.flv` file (duration patched when it is closed).
    case flvFile(path: String)

    /// Reads a command-line or config output: an `rtmp://` URL, or a path ending in `.flv`.
    public init(parsing text: String) throws(OutputTargetError) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("rtmp://") || lowered.hasPrefix("rtmps://") || lowered.contains("://") {
            do {
                self = .rtmp(try RTMPURL(parsing: text))
            } catch {
                throw .badURL(error.description)
            }
            return
        }
        guard !text.isEmpty else { throw .empty }
        guard lowered.hasSuffix(".flv") else { throw .unknownKind(path: text) }
        self = .flvFile(path: text)
    }

    /// Safe to log: RTMP URLs show their stream key masked.
    public var description: String {
        switch self {
        case .rtmp(let url): url.redacted
        case .flvFile(let path): path
        }
    }
}

public enum OutputTargetError: Error, Equatable, CustomStringConvertible {
    case empty
    case badURL(String)
    case unknownKind(path: String)

    public var description: String {
        switch self {
        case .empty: "an output must not be empty"
        case .badURL(let reason): reason
        case .unknownKind(let path):
            "output '\(path)' is neither an rtmp:// URL nor a file ending in .flv"
        }
    }
}
