/// A publish URL `rtmp[s]://host[:port]/app[/instance]/streamkey[?query]`, checked against what
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
    /// `rtmp`, or `rtmps` (RTMP over TLS, which Camcast runs itself: RTMP module, `TLSSession`).
    public let scheme: String
    /// A DNS name, a dotted IPv4 address, or an IPv6 address without its brackets.
    public let host: String
    /// 1935 (rtmp) or 443 (rtmps) when the URL names none.
    public let port: UInt16
    /// `app` or `app/instance`, as sent in the connect command.
    public let app: String
    /// The last path element: the stream name, which ingest services use as the secret key.
    public let streamKey: String
    /// Everything after `?`, without the `?`; nil when absent or empty.
    public let query: String?

    public static let defaultPort: UInt16 = 1935
    /// rtmps:// without a port: 443, as librtmp, OBS and the ingest services use.
    public static let defaultTLSPort: UInt16 = 443
    /// The shape problem messages ask for.
    public static let expectedForm = "rtmp[s]://host[:port]/app/key"

    /// Whether the connection runs over TLS (`rtmps://`).
    public var usesTLS: Bool { scheme == "rtmps" }
    /// Whether `host` is an IPv6 address literal (written `[…]` in the URL).
    public var hostIsIPv6Literal: Bool { host.contains(":") }

    public init(parsing text: String) throws(RTMPURLError) {
        guard !text.isEmpty else { throw .empty }
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            throw .containsWhitespace
        }
        guard let schemeEnd = text.firstRange(of: "://") else { throw .missingScheme }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard !scheme.isEmpty else { throw .missingScheme }
        guard scheme == "rtmp" || scheme == "rtmps" else { throw .unsupportedScheme(scheme) }
        let rest = text[schemeEnd.upperBound...]

        // Authority: up to the first '/' (a '?' before any '/' means there is no path).
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let defaultPort = scheme == "rtmps" ? Self.defaultTLSPort : Self.defaultPort
        let (host, port) = try Self.parseAuthority(rest[..<authorityEnd], defaultPort: defaultPort)

        // Path and query.
        var path = rest[authorityEnd...]
        var query: Substring? = nil
        // The query is the last element's, as librtmp reads it: a `?` in the application is part
        // of it (YouTube's backup ingest, `live2?backup=1/KEY`, has the application `live2?backup=1`).
        let lastElement = path.lastIndex(of: "/").map { path[$0...] } ?? path
        if let questionMark = lastElement.firstIndex(of: "?") {
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

    static func parseAuthority(_ authority: Substring, defaultPort: UInt16) throws(RTMPURLError) -> (String, UInt16) {
        if authority.contains("@") { throw .userInfo }
        var host = authority
        var portText: Substring?
        if authority.first == "[" {
            // `[v6address]` or `[v6address]:port` (RFC 3986 §3.2.2); no zone ids.
            guard let close = authority.firstIndex(of: "]") else { throw .invalidIPv6Literal }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":" else { throw .invalidIPv6Literal }
                portText = after.dropFirst()
            }
            guard isIPv6Literal(host) else { throw .invalidIPv6Literal }
        } else {
            if authority.contains("[") || authority.contains("]") { throw .invalidIPv6Literal }
            if let colon = authority.firstIndex(of: ":") {
                host = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            }
            guard !host.isEmpty else { throw .missingHost }
            // DNS names and dotted IPv4 addresses (getaddrinfo resolves both).
            guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }) else {
                throw .invalidHostName
            }
        }
        var port = defaultPort
        if let digits = portText {
            let allDigits = !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
            guard allDigits else { throw .invalidPort(text: nil) }
            guard digits.count <= 5, let value = UInt16(digits), value >= 1 else {
                throw .invalidPort(text: digits.count <= 6 ? String(digits) : nil)
            }
            port = value
        }
        return (String(host), port)
    }

    /// The textual shape of an IPv6 address (RFC 4291 §2.2): hex groups of at most four digits
    /// separated by `:`, at most one `::`, optionally a dotted IPv4 tail. getaddrinfo has the
    /// last word; this keeps other text (a zone id, a host name) out of the brackets.
    static func isIPv6Literal(_ text: Substring) -> Bool {
        guard text.count >= 2, text.count <= 45, text.contains(":") else { return false }
        guard text.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return false }
        let doubleColons = text.ranges(of: "::").count
        guard doubleColons <= 1, !text.contains(":::") else { return false }
        var groups = text.split(separator: ":", omittingEmptySubsequences: true)
        var groupLimit = 8
        if let last = groups.last, last.contains(".") {
            let octets = last.split(separator: ".", omittingEmptySubsequences: false)
            guard octets.count == 4, octets.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) && Int($0)! <= 255 })
            else { return false }
            groups.removeLast()
            groupLimit = 6
        }
        guard !groups.contains(where: { $0.count > 4 || $0.contains(".") }) else { return false }
        if doubleColons == 0 {
            // Without `::`, no group may be empty and all of them must be there.
            guard !text.hasPrefix(":"), !text.hasSuffix(":"), groups.count == groupLimit else { return false }
        } else {
            guard groups.count < groupLimit else { return false }
            // A single leading or trailing `:` is only allowed as part of `::`.
            if text.hasPrefix(":") && !text.hasPrefix("::") { return false }
            if text.hasSuffix(":") && !text.hasSuffix("::") { return false }
        }
        return true
    }

    /// `/app[/instance]/key` into the application and the key.
    private static func parsePath(_ path: Substring) throws(RTMPURLError) -> (app: String, key: String) {
        let path = path.first == "/" ? path.dropFirst() : path
        guard !path.isEmpty else { throw .missingApp }
        let elements = path.split(separator: "/", omittingEmptySubsequences: false)
        if elements.count == 1 || (elements.count == 2 && elements[1].isEmpty) {
            guard !elements[0].isEmpty else { throw .missingApp }
            throw .missingStreamKey(app: looksLikeApplication(elements[0]) ? String(elements[0]) : nil)
        }
        guard let key = elements.last, !key.isEmpty else {
            // `app/key/`: a key was given, then a slash.
            if elements.dropLast().allSatisfy({ !$0.isEmpty }) { throw .trailingSlash }
            throw .emptyPathElement
        }
        let appElements = elements.dropLast()
        if appElements.contains(where: \.isEmpty) { throw .emptyPathElement }
        guard appElements.count <= 3 else { throw .tooManyPathElements(count: appElements.count) }
        return (appElements.joined(separator: "/"), String(key))
    }

    /// Whether a lone path element reads as an application name rather than a stream key: short
    /// and lowercase (`live`, `rec`, `app2`). Keys are long or mixed-case; a short lowercase key
    /// given without its application would be shown, the price of naming what the user typed.
    static func looksLikeApplication(_ element: Substring) -> Bool {
        element.count <= 12 && element.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" || $0 == "." }
            && element.contains { ("a"..."z").contains($0) }
    }

    /// `host`, bracketed when it is an IPv6 address, as a URL writes it.
    public var hostForURL: String { hostIsIPv6Literal ? "[\(host)]" : host }

    /// The normalized full URL, port always explicit. Only for `RTMP_SetupURL` (which takes the
    /// connect command's tcUrl, app and stream name from it; the RTMP module connects the socket,
    /// so librtmp's own host parsing, which knows no brackets, is never used): never log it.
    package var unredactedForLibrtmp: String {
        "\(scheme)://\(hostForURL):\(port)/\(app)/\(streamKey)" + (query.map { "?" + $0 } ?? "")
    }
}

extension RTMPURL: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The redacted form, so `"\(url)"` never leaks the key.
    public var description: String { redacted }
    public var debugDescription: String { "RTMPURL(\(redacted))" }
    /// `dump(url)` and debuggers see only the redacted form.
    public var customMirror: Mirror { Mirror(self, children: ["redacted": redacted]) }
}
