/// Why a string is not a publishable RTMP URL.
///
/// No case carries the stream key or a query value, so `description` is safe to log:
/// a config error must never leak the key (design.md invariant 6).
public enum RTMPURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No `scheme://` at the start.
    case missingScheme
    /// A scheme other than `rtmp`; `reason` says why it is not supported.
    case unsupportedScheme(scheme: String, reason: String)
    /// Spaces or control characters: librtmp's `RTMP_SetupURL` would read text after a
    /// space as its own `option=value` settings.
    case containsWhitespace
    /// Empty host, or a host form librtmp cannot use (user info, IPv6 literal).
    case invalidHost
    /// The port is not a number in 1…65535. `text` is the digits, when the port was digits.
    case invalidPort(text: String?)
    /// No application path element after the host.
    case missingApp
    /// No stream key after the application.
    case missingStreamKey
    /// An empty path element (`//`).
    case emptyPathElement
    /// More than three application elements: librtmp's URL parser takes at most
    /// `app/instance/x` as the application and would treat the rest as part of the key.
    case tooManyPathElements(count: Int)

    public var description: String {
        switch self {
        case .missingScheme:
            return "RTMP URL must start with rtmp://"
        case .unsupportedScheme(let scheme, let reason):
            return "RTMP URL scheme \(scheme):// is not supported: \(reason)"
        case .containsWhitespace:
            return "RTMP URL must not contain spaces or control characters"
        case .invalidHost:
            return "RTMP URL has no usable host (expected rtmp://host[:port]/app/key; no user info, no IPv6 literal)"
        case .invalidPort(let text):
            if let text { return "RTMP URL port \(text) is not in 1…65535" }
            return "RTMP URL port is not a number in 1…65535"
        case .missingApp:
            return "RTMP URL has no application (expected rtmp://host[:port]/app/key)"
        case .missingStreamKey:
            return "RTMP URL has no stream key after the application (expected rtmp://host[:port]/app/key)"
        case .emptyPathElement:
            return "RTMP URL has an empty path element (//)"
        case .tooManyPathElements(let count):
            return "RTMP URL has \(count) application path elements; librtmp supports at most 3 before the stream key"
        }
    }
}
