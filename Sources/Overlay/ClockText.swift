#if canImport(Glibc)
import Glibc
#endif

/// An item's text at a moment: its strftime fields filled in local time, or, while the system's
/// clock is not set, the configured stand-in (`--:--:--`) in their place, never a 1970 date.
struct ClockText {
    /// Whether the text has strftime fields at all; one without is laid out once.
    let hasFields: Bool
    private let template: String
    /// The text before the first field and after the last: the literal text (a camera's name)
    /// stays when the clock part is replaced.
    private let prefix: String
    private let suffix: String

    init(_ template: String) {
        self.template = template
        let characters = Array(template)
        var first: Int?
        var last: Int?
        var index = 0
        while index < characters.count {
            if characters[index] == "%", index + 1 < characters.count {
                if characters[index + 1] != "%" {
                    first = first ?? index
                    last = index + 1
                }
                index += 2
            } else {
                index += 1
            }
        }
        hasFields = first != nil
        prefix = first.map { String(characters[..<$0]) } ?? template
        suffix = last.map { String(characters[($0 + 1)...]) } ?? ""
    }

    /// The text at `seconds` since the epoch (local time, zone from the system).
    func text(at seconds: Int, clockIsSet: Bool, unsetText: String) -> String {
        guard hasFields else { return template.replacingPercentEscapes() }
        guard clockIsSet else { return prefix.replacingPercentEscapes() + unsetText + suffix.replacingPercentEscapes() }
        var time = time_t(seconds)
        var parts = tm()
        localtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 512)
        let count = strftime(&buffer, buffer.count, template, &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension String {
    /// `%%` as strftime writes it, for text shown without going through strftime.
    fileprivate func replacingPercentEscapes() -> String {
        var out = ""
        var pendingPercent = false
        for character in self {
            if character == "%", !pendingPercent {
                pendingPercent = true
                continue
            }
            pendingPercent = false
            out.append(character)
        }
        return out
    }
}
