extension Duration {
    /// Whole nanoseconds, for a system call's or a clock's arithmetic: 0 for a duration at or below
    /// zero (a deadline already passed) and `UInt64.max` (some 584 years) for one longer than that,
    /// so no caller's multiplication can trap on a far-off deadline.
    public var clampedNanoseconds: UInt64 {
        guard self > .zero else { return 0 }
        let (seconds, attoseconds) = components
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, carry) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        return overflow || carry ? .max : sum
    }

    /// Whole milliseconds rounded up, so a wait given this never ends a fraction of a millisecond
    /// before its deadline; clamped like `clampedNanoseconds`.
    public var clampedMillisecondsRoundedUp: UInt64 {
        let nanoseconds = clampedNanoseconds
        return nanoseconds / 1_000_000 + (nanoseconds % 1_000_000 == 0 ? 0 : 1)
    }
}
