#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An instant on the wall clock (CLOCK_REALTIME), in whole seconds since 1970-01-01 00:00 UTC.
///
/// Whole seconds are enough: a schedule's bounds are minutes, and sunrise is known to about one.
/// Not Foundation's `Date`: FoundationEssentials cannot read a named time zone (that part of
/// Foundation needs ICU, 30 MB in the static binary), so this module brings its own zone rules.
public struct WallTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var secondsSince1970: Int64

    public init(secondsSince1970: Int64) {
        self.secondsSince1970 = secondsSince1970
    }

    /// The system's wall clock now. It may step (NTP's first sync, a manual change): a caller that
    /// waits for a transition re-asks the schedule after a step rather than trusting an old answer.
    public static func now() -> WallTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return WallTime(secondsSince1970: Int64(spec.tv_sec))
    }

    public static func < (lhs: WallTime, rhs: WallTime) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    public func adding(seconds: Int64) -> WallTime {
        WallTime(secondsSince1970: secondsSince1970 + seconds)
    }

    /// `2026-03-29T01:00:00Z`, for logs and test failures.
    public var description: String {
        let days = secondsSince1970.floorDivided(by: 86_400)
        let seconds = Int(secondsSince1970 - days * 86_400)
        return "\(CivilDate(daysSince1970: days))T\(LocalTime(secondsOfDay: seconds).descriptionWithSeconds)Z"
    }
}

extension Int64 {
    /// Division rounding toward minus infinity: instants before 1970 land on the right day.
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
