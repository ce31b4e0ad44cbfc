#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point on CLOCK_MONOTONIC, in nanoseconds.
///
/// This is the clock the kernel stamps V4L2 capture buffers with, so every frame's presentation time
/// is one of these — never the wall clock (which jumps under NTP) and never a frame counter (which
/// hides dropped frames).
public struct MonotonicTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    public static func now() -> MonotonicTime {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return MonotonicTime(nanoseconds: UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec))
    }

    /// Whole milliseconds, the unit of FLV timestamps and of the encoder's timebase.
    public var milliseconds: Int64 { Int64(nanoseconds / 1_000_000) }

    public func adding(nanoseconds delta: UInt64) -> MonotonicTime {
        // Saturating: a deadline centuries away stays far away instead of trapping.
        let (sum, overflow) = nanoseconds.addingReportingOverflow(delta)
        return MonotonicTime(nanoseconds: overflow ? .max : sum)
    }

    /// Nanoseconds from `earlier` to `self`; negative if `earlier` is later.
    public func nanoseconds(since earlier: MonotonicTime) -> Int64 {
        Int64(bitPattern: nanoseconds &- earlier.nanoseconds)
    }

    public static func < (lhs: MonotonicTime, rhs: MonotonicTime) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    public var description: String { "\(Double(nanoseconds) / 1e9)s" }
}
