import RTMPAddress

/// How values appear inside problem messages.
enum ValueText {
    /// A value as the user wrote it, in backticks. Anything that looks like a URL is redacted
    /// first: an RTMP URL pasted under the wrong key must not leak its stream key either.
    static func quoted(_ text: String) -> String {
        "`\(plain(text))`"
    }

    /// `quoted` without the backticks, for key paths.
    static func plain(_ text: String) -> String {
        guard text.contains("://") || text.lowercased().hasPrefix("rtmp") else {
            return text.count > 80 ? String(text.prefix(77)) + "…" : text
        }
        return RTMPURL.redact(text)
    }

    /// `2` rather than `2.0`; `0.1` stays `0.1`.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }

    static func range(_ range: ClosedRange<Int>) -> String {
        "\(range.lowerBound)…\(range.upperBound)"
    }

    static func range(_ range: ClosedRange<Double>) -> String {
        "\(number(range.lowerBound))…\(number(range.upperBound))"
    }

    /// `a, b or c`.
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " or " + items.last!
    }
}
