/// What a PromQL expression reads: its series selectors (`name{matchers}`) and the labels it
/// groups or joins by (`by (…)`, `without (…)`, `on (…)`, `ignoring (…)`, `group_left (…)`,
/// `group_right (…)`). Enough of the grammar for contrib/'s expressions as Prometheus prints them
/// back; anything it cannot place (a selector without a metric name) is an error, so a check built
/// on it cannot pass by reading nothing.
struct PromQLSelectors {
    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    private(set) var selectors: [String] = []
    private(set) var groupingLabels: [String] = []

    static let keywordsWithLabelList: Set<String> = ["by", "without", "on", "ignoring", "group_left", "group_right"]
    static let otherKeywords: Set<String> = ["and", "or", "unless", "bool", "offset", "atan2", "inf", "nan"]
    /// Aggregations: their `by (…)` may stand between the name and the parenthesis.
    static let aggregations: Set<String> = [
        "sum", "avg", "count", "min", "max", "group", "stddev", "stdvar", "topk", "bottomk", "quantile", "count_values",
    ]

    init(_ expression: String) throws {
        let text = Array(expression)
        var index = 0
        func isNameStart(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c == "_" || c == ":") }
        func isNamePart(_ c: Character) -> Bool { isNameStart(c) || (c.isASCII && c.isNumber) }
        func skipSpaces(from start: Int) -> Int {
            var at = start
            while at < text.count && text[at].isWhitespace { at += 1 }
            return at
        }
        /// The index just past the bracket that closes the one at `start`, strings skipped.
        func closing(from start: Int) throws -> Int {
            let open = text[start]
            let close: Character = open == "{" ? "}" : open == "[" ? "]" : ")"
            var depth = 0
            var at = start
            while at < text.count {
                let c = text[at]
                if c == "\"" || c == "'" || c == "`" {
                    at = try skipString(from: at)
                    continue
                }
                if c == open { depth += 1 } else if c == close { depth -= 1 }
                at += 1
                if depth == 0 { return at }
            }
            throw Unreadable(description: "unclosed \(open) in \(expression)")
        }
        func skipString(from start: Int) throws -> Int {
            let quote = text[start]
            var at = start + 1
            while at < text.count && text[at] != quote { at += text[at] == "\\" && quote != "`" ? 2 : 1 }
            guard at < text.count else { throw Unreadable(description: "unclosed string in \(expression)") }
            return at + 1
        }

        while index < text.count {
            let c = text[index]
            if c == "\"" || c == "'" || c == "`" {
                index = try skipString(from: index)
            } else if c == "[" {
                index = try closing(from: index)  // a range or subquery: durations only
            } else if c == "{" {
                throw Unreadable(description: "a selector without a metric name in \(expression)")
            } else if c.isASCII && c.isNumber {
                while index < text.count && (isNamePart(text[index]) || text[index] == ".") { index += 1 }  // 0.01, 1e3, 5m
            } else if isNameStart(c) {
                var end = index
                while end < text.count && isNamePart(text[end]) { end += 1 }
                let name = String(text[index..<end])
                let next = skipSpaces(from: end)
                if Self.keywordsWithLabelList.contains(name) {
                    guard next < text.count && text[next] == "(" else { throw Unreadable(description: "\(name) without a label list in \(expression)") }
                    let after = try closing(from: next)
                    groupingLabels += String(text[(next + 1)..<(after - 1)]).split(separator: ",")
                        .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                    index = after
                } else if Self.otherKeywords.contains(name.lowercased()) || Self.aggregations.contains(name)
                    || (next < text.count && text[next] == "(") {
                    index = end  // an operator, or a function or aggregation: its argument is read next
                } else if next < text.count && text[next] == "{" {
                    let after = try closing(from: next)
                    selectors.append(name + String(text[next..<after]))
                    index = after
                } else {
                    selectors.append(name)
                    index = end
                }
            } else {
                index += 1
            }
        }
    }
}
