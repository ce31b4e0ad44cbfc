/// Why a string is not a publishable RTMP URL.
///
/// No case carries the stream key or a query value, so every text here is safe to log:
/// a config error must never leak the key (design.md invariant 6).
public enum RTMPURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing at all.
    case empty
    /// No `scheme://` at the start.
    case missingScheme
    /// A scheme other than `rtmp` and `rtmps`, lowercased.
    case unsupportedScheme(String)
    /// Spaces or control characters: librtmp's `RTMP_SetupURL` would read text after a
    /// space as its own `option=value` settings.
    case containsWhitespace
    /// Nothing between `rtmp://` and the path.
    case missingHost
    /// `user@host`: librtmp has no use for user info and would take it as part of the host.
    case userInfo
    /// Brackets that do not hold just an IPv6 address (`[::1]` is fine; `[fe80::1%eth0]`,
    /// `[host]`, an unclosed `[` are not), or brackets outside the host.
    case invalidIPv6Literal
    /// A host with characters no DNS name or IPv4 address has.
    case invalidHostName
    /// The port is not a number in 1…65535. `text` is the digits, when the port was a short run
    /// of digits (anything else is not shown: it could be a pasted secret).
    case invalidPort(text: String?)
    /// No application path element after the host.
    case missingApp
    /// No stream key after the application. `app` is the one path element when it reads as an
    /// application name (short, lowercase: `live`, `rec`), so the message can show what was
    /// typed; nil when it could be a key given without its application (then it stays masked).
    case missingStreamKey(app: String?)
    /// A `/` after the stream key (`rtmp://host/app/key/`): librtmp would publish to an empty name.
    case trailingSlash
    /// An empty path element (`//`).
    case emptyPathElement
    /// More than three application elements: librtmp's URL parser takes at most
    /// `app/instance/x` as the application and would treat the rest as part of the key.
    case tooManyPathElements(count: Int)

    /// What is wrong, worded to follow the URL it is about: "`rtmp://h:0/live/****` has port `0`; …".
    public var reason: String {
        let form = RTMPURL.expectedForm
        switch self {
        case .empty:
            return "is empty (expected \(form))"
        case .missingScheme:
            return "is not an RTMP URL (expected \(form))"
        case .unsupportedScheme(let scheme):
            return "has scheme `\(scheme)`; only rtmp:// and rtmps:// can be published to"
        case .containsWhitespace:
            return "contains spaces or control characters; write a plain \(form) URL (librtmp options are not supported)"
        case .missingHost:
            return "has no host (expected \(form))"
        case .userInfo:
            return "has user info (`…@host`), which librtmp does not support (expected \(form))"
        case .invalidIPv6Literal:
            return "has brackets that do not hold an IPv6 address (expected rtmp://[2001:db8::1]:1935/app/key; zone ids are not supported)"
        case .invalidHostName:
            return "has an invalid host name (letters, digits, `-` and `.` only)"
        case .invalidPort(let text?):
            return "has port `\(text)`; a port is 1…65535"
        case .invalidPort(nil):
            return "has a port that is not a number in 1…65535"
        case .missingApp:
            return "has no application and no stream key (expected \(form))"
        case .missingStreamKey(let app?):
            return "has the application `\(app)` but no stream key after it; the key is missing (expected \(form))"
        case .missingStreamKey(nil):
            return "has only one path element (masked: it may be a key); expected an application and a stream key (\(form))"
        case .trailingSlash:
            return "ends with `/` after the stream key; remove the trailing slash (expected \(form))"
        case .emptyPathElement:
            return "has an empty path element (//)"
        case .tooManyPathElements(let count):
            return "has \(count) application path elements; librtmp supports at most 3 before the stream key"
        }
    }

    /// The problem with `text`, quoting it redacted: "`rtmp://h:0/live/****` has port `0`; …".
    public func message(quoting text: String) -> String {
        guard !text.isEmpty else { return reason }
        var quoted = RTMPURL.redact(text)
        // The one path element is the application, not a key: show it as typed.
        if case .missingStreamKey(let app?) = self, let scheme = quoted.firstRange(of: "://"),
            let masked = quoted[scheme.upperBound...].firstRange(of: "/" + StreamKeyRedactor.mask)
        {
            quoted.replaceSubrange(masked, with: "/" + app)
        }
        return "`\(quoted)` \(reason)"
    }

    public var description: String { "URL \(reason)" }
}
