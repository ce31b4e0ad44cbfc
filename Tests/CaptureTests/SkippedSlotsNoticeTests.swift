import Media
import Testing

@testable import Capture

/// The skipped-slot notice: the first at once, then at most one per spacing, and every slot in
/// some notice once the source stops.
@Suite struct SkippedSlotsNoticeTests {
    static func at(_ milliseconds: UInt64) -> MonotonicTime { MonotonicTime(nanoseconds: 1_000_000_000_000 + milliseconds * 1_000_000) }

    @Test func theFirstSkipIsNoticedAtOnce() {
        var notice = SkippedSlotsNotice()
        #expect(notice.skipped(0, behind: 0, now: Self.at(0)) == nil)
        #expect(notice.skipped(7, behind: 1_202_000_000, now: Self.at(0)) == .init(slots: 7, behindNanoseconds: 1_202_000_000))
        #expect(notice.flush() == nil, "nothing left once noticed")
    }

    /// A machine that stays a second behind: a slot or two every 100 ms for 25 s. Three notices
    /// (at 0, 10 and 20 s) and the rest at the stop, their slots adding up to every one skipped.
    @Test func aSteadyTrickleIsGatheredAndAddsUpAtTheStop() {
        var notice = SkippedSlotsNotice()
        var logged: [SkippedSlotsNotice.Due] = []
        var skipped = 0
        for step in 0..<250 {
            let slots = 1 + step % 2
            skipped += slots
            if let due = notice.skipped(slots, behind: 1_000_000_000 + Int64(step) * 1_000_000, now: Self.at(UInt64(step) * 100)) {
                logged.append(due)
            }
        }
        #expect(logged.count == 3, "\(logged)")
        if let rest = notice.flush() { logged.append(rest) }
        #expect(logged.map(\.slots).reduce(0, +) == skipped)
        #expect(logged.last?.behindNanoseconds == 1_249_000_000, "the furthest behind since the last notice")
    }
}
