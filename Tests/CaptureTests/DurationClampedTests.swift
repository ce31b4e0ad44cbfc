import Media
import Testing

/// Media's one conversion from a `Duration` (a deadline's time left) to a system call's units.
@Suite struct DurationClampedTests {
    @Test func wholeNanosecondsAndMillisecondsRoundedUp() {
        #expect(Duration.milliseconds(1500).clampedNanoseconds == 1_500_000_000)
        #expect(Duration.nanoseconds(1).clampedNanoseconds == 1)
        #expect(Duration.milliseconds(1500).clampedMillisecondsRoundedUp == 1500)
        #expect(Duration.nanoseconds(1_000_001).clampedMillisecondsRoundedUp == 2)
        #expect(Duration.nanoseconds(1).clampedMillisecondsRoundedUp == 1)
    }

    @Test func aPassedDeadlineIsZero() {
        #expect(Duration.zero.clampedNanoseconds == 0)
        #expect(Duration.milliseconds(-1).clampedNanoseconds == 0)
        #expect(Duration.seconds(-3).clampedMillisecondsRoundedUp == 0)
    }

    @Test func aFarOffDeadlineSaturatesInsteadOfTrapping() {
        let centuries = Duration.seconds(Int64.max)
        #expect(centuries.clampedNanoseconds == .max)
        #expect(centuries.clampedMillisecondsRoundedUp == UInt64.max / 1_000_000 + 1)
        let now = MonotonicTime.now()
        #expect(now.adding(nanoseconds: centuries.clampedNanoseconds) == MonotonicTime(nanoseconds: .max))
    }
}
