/// A publish URL `rtmp://host[:port]/app[/instance]/streamkey[?query]`.
///
/// The split into application and stream key follows librtmp's `RTMP_ParseURL`
/// (parseurl.c): the application is every path element but the last (at most three),
/// the last element is the stream name — for ingest services, the secret stream key.
///
/// Printing never reveals the key: `description`, `debugDescription` and the reflection
/// used by `dump` all show `redacted`. The full URL exists only as
/// `unredactedForLibrtmp`, which is internal to this module.
public struct RTMPURL: Sendable, Hashable {
    /// Always `rtmp` (rtmps is rejected: see `RTMPURLError.unsupportedScheme`).
    public let scheme: String
    public let host: String
    /// 1935 when the URL names none.
    public let port: UInt16
    /// `app` or `app/instance`, as sent in the connect command.
    public let app: String
    /// The last path element: the stream name, which ingest services use as the secret key.
    public let streamKey: String
    /// Everything after `?`, without the `?`; nil when absent or empty.
    public let query: String?

    public static let defaultPort: UInt16 = 1935

    /// Query parameters whose values are treated as secrets: a name containing any of these
    /// (case-insensitive), e.g. `key`, `streamkey`, `token`, `access_token`, `secret`, `auth`,
    /// `password`, `sig`.
    static let secretQueryNameFragments = ["key", "token", "secret", "auth", "pass", "sig"]

    public init(parsing text: String) throws(RTMPURLError) {
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            throw .containsWhitespace
        }
        guard let schemeEnd = text.firstRange(of: "://") else { throw .missingScheme }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        switch scheme {
        case "rtmp":
            break
        case "rtmps":
            throw .unsupportedScheme(
                scheme: scheme,
                reason: "not supported by Debian's librtmp build (no certificate checks); use an rtmp:// ingest or a local TLS proxy")
        case "":
            throw .missingScheme
        default:
            throw .unsupportedScheme(scheme: scheme, reason: "only rtmp:// is supported")
        }
        let rest = text[schemeEnd.upperBound...]

        // Authority: up to the first '/' (a '?' before any '/' means there is no path).
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let (host, port) = try Self.parseAuthority(authority)

        // Path and query.
        var path = rest[authorityEnd...]
        var query: Substring? = nil
        if let questionMark = path.firstIndex(of: "?") {
            query = path[path.index(after: questionMark)...]
            path = path[..<questionMark]
        }
        if path.first == "/" { path = path.dropFirst() }
        guard !path.isEmpty else { throw .missingApp }
        let elements = path.split(separator: "/", omittingEmptySubsequences: false)
        if elements.count == 1 || (elements.count == 2 && elements[1].isEmpty) {
            guard !elements[0].isEmpty else { throw .missingApp }
            throw .missingStreamKey
        }
        guard let key = elements.last, !key.isEmpty else { throw .missingStreamKey }
        let appElements = elements.dropLast()
        if appElements.contains(where: \.isEmpty) { throw .emptyPathElement }
        guard appElements.count <= 3 else { throw .tooManyPathElements(count: appElements.count) }

        self.scheme = scheme
        self.host = host
        self.port = port
        self.app = appElements.joined(separator: "/")
        self.streamKey = String(key)
        self.query = query.flatMap { $0.isEmpty ? nil : String($0) }
    }

    private static func parseAuthority(_ authority: Substring) throws(RTMPURLError) -> (String, UInt16) {
        guard !authority.contains("@"), !authority.contains("["), !authority.contains("]") else {
            throw .invalidHost
        }
        var host = authority
        var port = RTMPURL.defaultPort
        if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            let digits = authority[authority.index(after: colon)...]
            let allDigits = !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
            guard allDigits else { throw .invalidPort(text: nil) }
            guard digits.count <= 5, let value = UInt16(digits), value >= 1 else {
                throw .invalidPort(text: digits.count <= 6 ? String(digits) : nil)
            }
            port = value
        }
        guard !host.isEmpty, !host.contains(":") else { throw .invalidHost }
        return (String(host), port)
    }

    /// `rtmp://host:port/app/****`, with secret query values masked too.
    public var redacted: String {
        var text = "\(scheme)://\(host):\(port)/\(app)/****"
        if let query {
            let masked = Self.queryItems(query).map { item in
                guard let value = item.value else { return item.name }
                return "\(item.name)=\(Self.isSecretQueryName(item.name) && !value.isEmpty ? "****" : value)"
            }
            text += "?" + masked.joined(separator: "&")
        }
        return text
    }

    /// The normalized full URL, port always explicit. Only for `RTMP_SetupURL`: never log it.
    var unredactedForLibrtmp: String {
        "\(scheme)://\(host):\(port)/\(app)/\(streamKey)" + (query.map { "?" + $0 } ?? "")
    }

    /// Every string that must not appear in output: the key and secret query values, each
    /// also percent-decoded (librtmp decodes %XX in the stream name before it logs or sends it).
    public var secrets: [String] {
        var values = [streamKey]
        if let query {
            for item in Self.queryItems(query) where Self.isSecretQueryName(item.name) {
                if let value = item.value, !value.isEmpty { values.append(value) }
            }
        }
        let decoded = values.compactMap { value -> String? in
            let d = Self.percentDecoded(value)
            return d == value ? nil : d
        }
        return values + decoded
    }

    /// A redactor for this URL's secrets.
    public var redactor: StreamKeyRedactor { StreamKeyRedactor(secrets: secrets) }

    static func isSecretQueryName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return secretQueryNameFragments.contains { lower.contains($0) }
    }

    static func queryItems(_ query: String) -> [(name: String, value: String?)] {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            if let eq = pair.firstIndex(of: "=") {
                return (String(pair[..<eq]), String(pair[pair.index(after: eq)...]))
            }
            return (String(pair), nil)
        }
    }

    static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension RTMPURL: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The redacted form, so `"\(url)"` never leaks the key.
    public var description: String { redacted }
    public var debugDescription: String { "RTMPURL(\(redacted))" }
    /// `dump(url)` and debuggers see only the redacted form.
    public var customMirror: Mirror { Mirror(self, children: ["redacted": redacted]) }
}
