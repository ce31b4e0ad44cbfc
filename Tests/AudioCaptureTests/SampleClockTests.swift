@testable import AudioCapture
import Media
import Testing

@Suite struct SampleClockTests {
    /// 30 days of a 48 kHz track: frames × 10⁹ is past 2⁶⁴, which trapped (the daemon died after
    /// 4.4 days of silence); seconds and the rest apart, the time is exact.
    @Test func timeAfterAMonthIsExact() {
        let clock = SampleClock(rate: 48_000, origin: MonotonicTime(nanoseconds: 5))
        let month: Int64 = 30 * 86_400
        let monthNanoseconds: UInt64 = 5 + UInt64(month) * 1_000_000_000
        #expect(clock.time(ofFrame: month * 48_000).nanoseconds == monthNanoseconds)
        #expect(clock.time(ofFrame: month * 48_000 + 1).nanoseconds == monthNanoseconds + 20_833)
    }

    @Test func aLagWithinASecondIsKept() {
        var clock = SampleClock(rate: 48_000, origin: MonotonicTime(nanoseconds: 0))
        #expect(clock.catchUp(now: MonotonicTime(nanoseconds: 900_000_000), step: 1024) == 0)
        #expect(clock.frames == 0)
    }

    /// 2.5 s behind: whole runs of 1024 are skipped up to the present, on the same grid.
    @Test func aStallSkipsWholeRunsToThePresent() {
        var clock = SampleClock(rate: 48_000, origin: MonotonicTime(nanoseconds: 0))
        clock.frames = 2048
        let now = MonotonicTime(nanoseconds: 2_542_666_667)  // frame 122 048 at 48 kHz
        let skipped = clock.catchUp(now: now, step: 1024)
        #expect(skipped == 117 * 1024)
        #expect(clock.frames == 2048 + 117 * 1024)
        #expect(clock.origin == MonotonicTime(nanoseconds: 0))
        let behind = now.nanoseconds(since: clock.time(ofFrame: clock.frames))
        #expect(behind >= 0 && behind < 1024 * 1_000_000_000 / 48_000)
    }
}
