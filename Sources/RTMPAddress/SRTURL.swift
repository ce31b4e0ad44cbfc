/// An SRT caller's address `srt://host:port`: a DNS name, a dotted IPv4 address or `[IPv6]`,
/// read by the RTMP URL's own authority rules. Options (latency, passphrase, stream id) are keys
/// of the output in the config, not query parameters, so a URL holds no secret.
public struct SRTURL: Sendable, Hashable, CustomStringConvertible {
    /// A DNS name, a dotted IPv4 address, or an IPv6 address without its brackets.
    public let host: String
    public let port: UInt16

    public static let expectedForm = "srt://host:port"

    public init(parsing text: String) throws(SRTURLError) {
        guard !text.isEmpty else { throw .empty }
        guard text.lowercased().hasPrefix("srt://") else { throw .notSRT }
        let authority = text.dropFirst("srt://".count)
        if authority.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { throw .hasPathOrQuery }
        do {
            (host, port) = try RTMPURL.parseAuthority(authority, defaultPort: 0)
        } catch {
            switch error {
            case .invalidIPv6Literal: throw .invalidIPv6Literal
            case .invalidPort(let digits): throw .invalidPort(text: digits)
            case .userInfo: throw .userInfo
            case .invalidHostName: throw .invalidHostName
            default: throw .missingHost
            }
        }
        guard port != 0 else { throw .missingPort }
    }

    /// `srt://host:port`, IPv6 in brackets.
    public var description: String {
        host.contains(":") ? "srt://[\(host)]:\(port)" : "srt://\(host):\(port)"
    }

    /// A stream id as it may be shown: its first `:`-element, the rest masked
    /// (`publish:cam1` → `publish:****`, `#!::r=live/cam` → `#!:****`); one without `:` is masked
    /// whole. Like an RTMP key, the part that names the stream may be the secret a server checks.
    public static func redactStreamID(_ streamID: String) -> String {
        guard let colon = streamID.firstIndex(of: ":") else { return StreamKeyRedactor.mask }
        return String(streamID[...colon]) + StreamKeyRedactor.mask
    }
}

/// Why a string is not an SRT caller address. No case carries the text itself.
public enum SRTURLError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    case notSRT
    case hasPathOrQuery
    case missingHost
    case missingPort
    case userInfo
    case invalidIPv6Literal
    case invalidHostName
    case invalidPort(text: String?)

    public var description: String {
        let form = SRTURL.expectedForm
        return switch self {
        case .empty: "is empty (expected \(form))"
        case .notSRT: "is not an SRT URL (expected \(form))"
        case .hasPathOrQuery:
            "has a path or query; write \(form) and give latency_ms, passphrase_file, pbkeylen and streamid as keys of the output"
        case .missingHost: "has no host (expected \(form))"
        case .missingPort: "has no port; SRT has no default port (expected \(form))"
        case .userInfo: "has user info (`…@host`); SRT has none (expected \(form))"
        case .invalidIPv6Literal: "has brackets that do not hold an IPv6 address (expected srt://[2001:db8::1]:9000; zone ids are not supported)"
        case .invalidHostName: "has an invalid host name (letters, digits, `-` and `.` only)"
        case .invalidPort(let text?): "has port `\(text)`; a port is 1…65535"
        case .invalidPort(nil): "has a port that is not a number in 1…65535"
        }
    }
}
