/// A day of the week as ISO 8601 numbers it: Monday 1 … Sunday 7.
public enum Weekday: Int, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The names a schedule's `days` accepts: `Mon` or `Monday`, any case.
    public init?(name: some StringProtocol) {
        let lowered = name.lowercased()
        guard let day = Weekday.allCases.first(where: { lowered == $0.shortName.lowercased() || lowered == $0.fullName.lowercased() })
        else { return nil }
        self = day
    }

    public var shortName: String {
        ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][rawValue - 1]
    }

    public var fullName: String {
        ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][rawValue - 1]
    }

    public var description: String { shortName }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}
