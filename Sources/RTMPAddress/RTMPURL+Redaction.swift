/// Hiding stream keys before a URL is shown anywhere (design invariant 6).
///
/// The key of `rtmp://host/app/KEY` is the last path element; services also put secrets in query
/// values under any name (`?key=…`, `?token=…`, `?pw=…`, `?st=…&e=…`, `?a=…`, a bare `?abc123`), in user
/// info (`rtmp://user:pass@host/…`) and in librtmp options after a space (`… playpath=KEY`). All of
/// those become `****`: every query value is masked unless its parameter is known to be harmless
/// (`harmlessQueryNames`), since no list of secret names can be complete. A parsed URL
/// and a URL as the user wrote it (valid or not) are masked by the same rules, so a config problem
/// and a log line show the same URL the same way.
extension RTMPURL {
    /// Query parameter names whose value is shown (matched whole, case-insensitively): routing and
    /// format settings that ingest services document, never credentials.
    static let harmlessQueryNames: Set<String> = [
        "vhost", "domain", "region", "quality", "format", "codec", "bitrate", "fps", "resolution", "lang", "backup",
    ]
    /// Query parameter names whose value is a secret even when very short (matched as
    /// case-insensitive substrings: `auth_key`, `streamkey`, `access_token`, `password`).
    static let secretQueryNameFragments = ["key", "token", "secret", "auth", "pass", "pwd", "sig"]
    /// Masked in a URL whatever its length, a value of another parameter is also masked in free
    /// text (log lines) from this length on: masking every `1` of `?live=1` in every line would
    /// garble the log and hide nothing.
    static let shortestFreeTextSecret = 3

    /// `rtmp://host:port/app/****`, with secret query values masked too.
    public var redacted: String { Self.redact(unredactedForLibrtmp) }

    /// `text` with every place that can hold a secret masked, whatever else is wrong with it, so
    /// even a malformed URL can be quoted in a problem message.
    public static func redact(_ text: String) -> String {
        var base = Substring(text)
        var tail = ""
        // Anything after whitespace is librtmp `name=value` options; `playpath=` may be the key.
        if let space = base.firstIndex(where: \.isWhitespace) {
            base = base[..<space]
            tail = " " + StreamKeyRedactor.mask
        }
        // A fragment could hold anything; drop it whole.
        if let hash = base.firstIndex(of: "#") {
            base = base[..<hash]
            tail = "#" + StreamKeyRedactor.mask + tail
        }
        // `app?params/key` (YouTube's backup ingest, `live2?backup=1/KEY`): the application
        // carries a query, the key follows it; each part is masked as its own kind.
        if let mark = base.firstIndex(of: "?"), let slash = base[mark...].lastIndex(of: "/") {
            let (prefix, app) = splitAuthority(base[..<mark])
            let appQuery = queryItems(base[base.index(after: mark)..<slash]).map(redactQueryItem).joined(separator: "&")
            let key = base[base.index(after: slash)...]
            let keyQuery = key.firstIndex(of: "?").map { "?" + queryItems(key[key.index(after: $0)...]).map(redactQueryItem).joined(separator: "&") }
            return prefix + app + "?" + appQuery + "/" + StreamKeyRedactor.mask + (keyQuery ?? "") + tail
        }
        var query: Substring?
        if let mark = base.firstIndex(of: "?") {
            query = base[base.index(after: mark)...]
            base = base[..<mark]
        }
        var result = redactPath(base)
        if let query {
            result += "?" + queryItems(query).map(redactQueryItem).joined(separator: "&")
        }
        return result + tail
    }

    /// Every string that must not appear in output: the key and secret query values, each
    /// also percent-decoded (librtmp decodes %XX in the stream name before it logs or sends it).
    public var secrets: [String] {
        var values = [streamKey]
        if let query {
            values += Self.queryItems(Substring(query)).filter(Self.isFreeTextSecret).compactMap(Self.secretValue)
        }
        let decoded = values.compactMap { value -> String? in
            let d = Self.percentDecoded(value)
            return d == value ? nil : d
        }
        return values + decoded
    }

    /// A redactor for this URL's secrets.
    public var redactor: StreamKeyRedactor { StreamKeyRedactor(secrets: secrets) }

    /// `scheme://authority/path` with user info and the last non-empty path element masked.
    private static func redactPath(_ base: Substring) -> String {
        let (prefix, path) = splitAuthority(base)
        var elements = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if let last = elements.lastIndex(where: { !$0.isEmpty }) {
            elements[last] = StreamKeyRedactor.mask
        }
        return prefix + elements.joined(separator: "/")
    }

    /// `scheme://authority` with user info masked, and the path after it.
    private static func splitAuthority(_ base: Substring) -> (prefix: String, path: Substring) {
        guard let separator = base.firstRange(of: "://") else { return ("", base) }
        let rest = base[separator.upperBound...]
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = String(rest[..<slash])
        if let at = authority.lastIndex(of: "@") {
            authority = StreamKeyRedactor.mask + String(authority[at...])
        }
        return (String(base[..<separator.upperBound]) + authority, rest[slash...])
    }

    private static func queryItems(_ query: Substring) -> [Substring] {
        query.split(separator: "&", omittingEmptySubsequences: false)
    }

    /// The part of a query item that is masked: every value but a harmless parameter's, or a
    /// bare item (`?abc123` may itself be a key); nil for anything else.
    private static func secretValue(_ item: Substring) -> String? {
        guard let equals = item.firstIndex(of: "=") else { return item.isEmpty ? nil : String(item) }
        let name = item[..<equals].lowercased()
        let value = item[item.index(after: equals)...]
        guard !value.isEmpty, !harmlessQueryNames.contains(name) else { return nil }
        return String(value)
    }

    /// Whether a masked value is also hunted for in free text: see `shortestFreeTextSecret`.
    private static func isFreeTextSecret(_ item: Substring) -> Bool {
        guard let equals = item.firstIndex(of: "=") else { return true }
        let name = item[..<equals].lowercased()
        return secretQueryNameFragments.contains(where: { name.contains($0) })
            || item.distance(from: equals, to: item.endIndex) - 1 >= shortestFreeTextSecret
    }

    private static func redactQueryItem(_ item: Substring) -> String {
        guard secretValue(item) != nil else { return String(item) }
        guard let equals = item.firstIndex(of: "=") else { return StreamKeyRedactor.mask }
        return item[...equals] + StreamKeyRedactor.mask
    }

    private static func percentDecoded(_ text: String) -> String {
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
