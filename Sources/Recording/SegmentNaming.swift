#if canImport(Glibc)
import Glibc
#endif

/// Segment names: a strftime(3) pattern in local time, and the test that a name is one this
/// pattern makes (with the `-2`, `-3`… a second segment in the same second gets), so retention
/// only ever deletes files that look like its own.
struct SegmentNaming: Sendable {
    var pattern: String

    /// The relative path for a segment starting at wall-clock `seconds` (Unix time).
    func name(at seconds: Int) -> String {
        var time = time_t(seconds)
        var local = tm()
        localtime_r(&time, &local)
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = strftime(&buffer, buffer.count, pattern, &local)
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `name` with `-counter` before its extension: `a/b.mp4` → `a/b-2.mp4`.
    static func numbered(_ name: String, _ counter: Int) -> String {
        let slash = name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.startIndex
        if let dot = name[slash...].lastIndex(of: "."), dot != slash {
            return "\(name[..<dot])-\(counter)\(name[dot...])"
        }
        return "\(name)-\(counter)"
    }

    /// Whether `name` (relative) is one `name(at:)` could have made, numbered or not.
    func matches(_ name: String) -> Bool {
        let text = Array(name.utf8)
        let tokens = Self.tokens(Array(pattern.utf8))
        if Self.match(tokens[...], text[...]) { return true }
        // A numbered name: strip "-N" before the extension and try again.
        guard let stripped = Self.unnumbered(name) else { return false }
        return Self.match(tokens[...], Array(stripped.utf8)[...])
    }

    private static func unnumbered(_ name: String) -> String? {
        let slash = name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.startIndex
        let dot = name[slash...].lastIndex(of: ".") ?? name.endIndex
        let stem = name[..<dot]
        guard let dash = stem.lastIndex(of: "-"), dash >= slash else { return nil }
        let digits = stem[stem.index(after: dash)...]
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return String(name[..<dash] + name[dot...])
    }

    private enum Token {
        case literal(UInt8)
        /// `count` decimal digits (a variable count when nil), after an optional sign when `signed`.
        case digits(Int?, signed: Bool)
        /// Anything but `/` (a conversion whose output this matcher does not model: %a, %Z…).
        case any
    }

    private static func tokens(_ pattern: [UInt8]) -> [Token] {
        var result: [Token] = []
        var index = 0
        while index < pattern.count {
            let byte = pattern[index]
            guard byte == UInt8(ascii: "%"), index + 1 < pattern.count else {
                result.append(.literal(byte))
                index += 1
                continue
            }
            index += 2
            switch pattern[index - 1] {
            case UInt8(ascii: "%"): result.append(.literal(byte))
            case UInt8(ascii: "Y"), UInt8(ascii: "G"): result.append(.digits(4, signed: false))
            case UInt8(ascii: "m"), UInt8(ascii: "d"), UInt8(ascii: "H"), UInt8(ascii: "M"), UInt8(ascii: "S"),
                UInt8(ascii: "y"), UInt8(ascii: "I"), UInt8(ascii: "U"), UInt8(ascii: "W"), UInt8(ascii: "V"):
                result.append(.digits(2, signed: false))
            case UInt8(ascii: "j"): result.append(.digits(3, signed: false))
            case UInt8(ascii: "z"): result.append(.digits(4, signed: true))
            case UInt8(ascii: "s"): result.append(.digits(nil, signed: false))
            case UInt8(ascii: "F"): result += tokens(Array("%Y-%m-%d".utf8))
            case UInt8(ascii: "T"): result += tokens(Array("%H:%M:%S".utf8))
            default: result.append(.any)
            }
        }
        return result
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func match(_ tokens: ArraySlice<Token>, _ text: ArraySlice<UInt8>) -> Bool {
        guard let token = tokens.first else { return text.isEmpty }
        let rest = tokens.dropFirst()
        switch token {
        case .literal(let byte):
            return text.first == byte && match(rest, text.dropFirst())
        case .digits(let count, let signed):
            var body = text
            if signed {
                guard let sign = body.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return false }
                body = body.dropFirst()
            }
            if let count {
                return body.prefix(count).count == count && body.prefix(count).allSatisfy(isDigit) && match(rest, body.dropFirst(count))
            }
            let run = body.prefix(while: isDigit).count
            return run > 0 && (1...run).contains { match(rest, body.dropFirst($0)) }
        case .any:
            let run = text.prefix { $0 != UInt8(ascii: "/") }.count
            return run > 0 && (1...run).contains { match(rest, text.dropFirst($0)) }
        }
    }
}
