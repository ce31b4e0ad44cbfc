/// Hides RTMP stream keys before a URL is shown anywhere (design invariant 6).
///
/// The key of `rtmp://host/app/KEY` is the last path element; services also put secrets in query
/// values (`?key=…`, `?token=…`), in user info (`rtmp://user:pass@host/…`) and in librtmp options
/// after a space (`… playpath=KEY`). All of those become `****`, whatever else is wrong with the URL,
/// so even a malformed URL can be quoted in a problem message.
enum StreamKeyRedaction {
    static let mask = "****"

    /// Query parameter names whose value is hidden (matched as case-insensitive substrings, so
    /// `auth_key`, `streamkey` and `access_token` are covered too).
    private static let secretQueryNames = ["key", "token", "secret", "auth", "pass", "pwd", "sig"]

    static func redact(_ url: String) -> String {
        var base = Substring(url)
        var tail = ""
        // Anything after whitespace is librtmp `name=value` options; `playpath=` may be the key.
        if let space = base.firstIndex(where: \.isWhitespace) {
            base = base[..<space]
            tail = " " + mask
        }
        // A fragment could hold anything; drop it whole.
        if let hash = base.firstIndex(of: "#") {
            base = base[..<hash]
            tail = "#" + mask + tail
        }
        var query: Substring?
        if let mark = base.firstIndex(of: "?") {
            query = base[base.index(after: mark)...]
            base = base[..<mark]
        }

        var prefix = ""
        var path = base
        if let separator = base.range(of: "://") {
            let rest = base[separator.upperBound...]
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            var authority = String(rest[..<slash])
            if let at = authority.lastIndex(of: "@") {
                authority = mask + String(authority[at...])
            }
            prefix = String(base[..<separator.upperBound]) + authority
            path = rest[slash...]
        }

        var elements = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if let last = elements.lastIndex(where: { !$0.isEmpty }) {
            elements[last] = mask
        }
        var result = prefix + elements.joined(separator: "/")
        if let query {
            result += "?" + query.split(separator: "&", omittingEmptySubsequences: false)
                .map(redactQueryItem).joined(separator: "&")
        }
        return result + tail
    }

    private static func redactQueryItem(_ item: Substring) -> String {
        guard let equals = item.firstIndex(of: "=") else {
            // A bare value (`?abc123`) may itself be a key.
            return item.isEmpty ? "" : mask
        }
        let name = item[..<equals].lowercased()
        guard secretQueryNames.contains(where: { name.contains($0) }) else { return String(item) }
        return item[...equals] + mask
    }
}
