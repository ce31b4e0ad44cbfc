/// Replaces every occurrence of each secret (stream key, secret query values) with `****`.
///
/// Every librtmp log line passes through one before it is logged: at debug levels
/// librtmp prints the playpath and tcUrl (rtmp.c `RTMP_SetupStream`), which contain the key.
public struct StreamKeyRedactor: Sendable {
    public static let mask = "****"
    /// Default length of `redactForDisplay`'s result, in characters.
    public static let displayLimit = 256

    /// Longest first, so a secret that contains another is masked whole.
    private let secrets: [String]

    public init(secrets: [String]) {
        self.secrets = Array(Set(secrets.filter { !$0.isEmpty })).sorted { $0.count > $1.count }
    }

    public func redact(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacing(secret, with: Self.mask)
        }
        return result
    }

    /// For text that came from the network (a server's status code or description, a librtmp
    /// line quoting one), in this order: secrets masked in the whole text; control characters
    /// escaped (`\n`, `\x1b`), so the server cannot forge log lines or drive a terminal; then cut
    /// to `limit` characters with `…`. Cutting last means a key is never shown in part (cut
    /// first, a key across the cut would survive as a prefix the mask no longer matches).
    public func redactForDisplay(_ text: String, limit: Int = displayLimit) -> String {
        Self.capped(Self.escapingControlCharacters(redact(text)), limit: limit)
    }

    /// C0 controls, DEL and C1 controls as `\n`, `\r`, `\t` or `\xHH`; a backslash doubled, so an
    /// escape in the output always means a control character in the input.
    public static func escapingControlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\\" })
        else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                result += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func capped(_ text: String, limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(max(0, limit - 1))) + "…"
    }
}
