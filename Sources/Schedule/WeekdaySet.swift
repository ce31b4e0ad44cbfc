/// The days a window starts on: `Mon-Fri`, `Sat,Sun`, `[Mon, Wed, Fri]`, `Fri-Mon` (wrapping).
public struct WeekdaySet: Sendable, Hashable, CustomStringConvertible {
    public var days: Set<Weekday>

    public static let everyDay = WeekdaySet(days: Set(Weekday.allCases))

    public init(days: Set<Weekday>) {
        self.days = days
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Each item a day, a range `Mon-Fri` or a comma-separated list of either.
    public init(parsing items: [String]) throws(ParseError) {
        var days: Set<Weekday> = []
        for item in items {
            for part in item.split(separator: ",") {
                let words = part.split(separator: "-", omittingEmptySubsequences: false)
                    .map { $0.trimmingWhitespace() }
                guard (1...2).contains(words.count) else {
                    throw ParseError(description: "`\(part.trimmingWhitespace())` is not a day or a range of days (expected Mon … Sun, or a range such as Mon-Fri)")
                }
                var parsed: [Weekday] = []
                for word in words {
                    guard let day = Weekday(name: word) else {
                        throw ParseError(description: "`\(word)` is not a day (expected Mon, Tue, Wed, Thu, Fri, Sat or Sun, or the full name)")
                    }
                    parsed.append(day)
                }
                var day = parsed[0]
                days.insert(day)
                while day != parsed.last! {
                    day = Weekday(rawValue: day.rawValue % 7 + 1)!
                    days.insert(day)
                }
            }
        }
        guard !days.isEmpty else { throw ParseError(description: "names no day (expected Mon … Sun, or a range such as Mon-Fri)") }
        self.days = days
    }

    public func contains(_ day: Weekday) -> Bool { days.contains(day) }

    /// `Mon-Fri`, `Mon,Wed,Fri`, `every day`.
    public var description: String {
        if days.count == 7 { return "every day" }
        let sorted = days.sorted()
        var runs: [[Weekday]] = []
        for day in sorted {
            if let last = runs.last?.last, last.rawValue + 1 == day.rawValue {
                runs[runs.count - 1].append(day)
            } else {
                runs.append([day])
            }
        }
        return runs.map { $0.count >= 3 ? "\($0.first!)-\($0.last!)" : $0.map(\.shortName).joined(separator: ",") }
            .joined(separator: ",")
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
