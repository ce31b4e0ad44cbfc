/// A publish URL `rtmp://host[:port]/app[/instance]/streamkey[?query]`, checked against what
/// librtmp 2.4 can actually publish to. The config file's `outputs[].url` and the publisher both
/// go through this one parser, so a URL that passes `camcast check-config` is one librtmp accepts.
///
/// The split into application and stream key follows librtmp's `RTMP_ParseURL`
/// (parseurl.c): the application is every path element but the last (at most three),
/// the last element is the stream name — for ingest services, the secret stream key.
///
/// Printing never reveals the key: `description`, `debugDescription` and the reflection
/// used by `dump` all show `redacted`. The full URL exists only as `unredactedForLibrtmp`,
/// which is visible inside this package only.
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
    /// The shape problem messages ask for.
    public static let expectedForm = "rtmp://host[:port]/app/key"

    public init(parsing text: String) throws(RTMPURLError) {
        guard !text.isEmpty else { throw .empty }
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            throw .containsWhitespace
        }
        guard let schemeEnd = text.firstRange(of: "://") else { throw .missingScheme }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard !scheme.isEmpty else { throw .missingScheme }
        guard scheme == "rtmp" else { throw .unsupportedScheme(scheme) }
        let rest = text[schemeEnd.upperBound...]

        // Authority: up to the first '/' (a '?' before any '/' means there is no path).
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let (host, port) = try Self.parseAuthority(rest[..<authorityEnd])

        // Path and query.
        var path = rest[authorityEnd...]
        var query: Substring? = nil
        if let questionMark = path.firstIndex(of: "?") {
            query = path[path.index(after: questionMark)...]
            path = path[..<questionMark]
        }
        let (app, key) = try Self.parsePath(path)

        self.scheme = scheme
        self.host = host
        self.port = port
        self.app = app
        self.streamKey = key
        self.query = query.flatMap { $0.isEmpty ? nil : String($0) }
    }

    private static func parseAuthority(_ authority: Substring) throws(RTMPURLError) -> (String, UInt16) {
        if authority.contains("@") { throw .userInfo }
        if authority.contains("[") || authority.contains("]") { throw .ipv6Literal }
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
        guard !host.isEmpty else { throw .missingHost }
        // What gethostbyname resolves: DNS names and dotted IPv4 addresses.
        guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }) else {
            throw .invalidHostName
        }
        return (String(host), port)
    }

    /// `/app[/instance]/key` into the application and the key.
    private static func parsePath(_ path: Substring) throws(RTMPURLError) -> (app: String, key: String) {
        let path = path.first == "/" ? path.dropFirst() : path
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
        return (appElements.joined(separator: "/"), String(key))
    }

    /// The normalized full URL, port always explicit. Only for `RTMP_SetupURL`: never log it.
    package var unredactedForLibrtmp: String {
        "\(scheme)://\(host):\(port)/\(app)/\(streamKey)" + (query.map { "?" + $0 } ?? "")
    }
}

extension RTMPURL: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The redacted form, so `"\(url)"` never leaks the key.
    public var description: String { redacted }
    public var debugDescription: String { "RTMPURL(\(redacted))" }
    /// `dump(url)` and debuggers see only the redacted form.
    public var customMirror: Mirror { Mirror(self, children: ["redacted": redacted]) }
}
