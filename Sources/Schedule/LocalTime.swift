/// A time of day on the wall clock, `07:30`, as seconds after midnight (0 ..< 86 400).
public struct LocalTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var secondsOfDay: Int

    public init(secondsOfDay: Int) {
        self.secondsOfDay = secondsOfDay
    }

    public init?(hour: Int, minute: Int) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        secondsOfDay = hour * 3600 + minute * 60
    }

    /// `7:30`, `07:30` or `23:59`; `24:00` is not a time of day (a window to midnight says `00:00`).
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let hour = Int(parts[0]), let minute = Int(parts[1])
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    public var hour: Int { secondsOfDay / 3600 }
    public var minute: Int { secondsOfDay / 60 % 60 }

    public static func < (lhs: LocalTime, rhs: LocalTime) -> Bool { lhs.secondsOfDay < rhs.secondsOfDay }

    /// `07:30`
    public var description: String {
        "\(Self.two(hour)):\(Self.two(minute))"
    }

    /// `07:30:05`
    public var descriptionWithSeconds: String {
        "\(description):\(Self.two(secondsOfDay % 60))"
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
