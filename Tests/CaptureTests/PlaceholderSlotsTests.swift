@testable import Capture
import Media
import Testing

/// The placeholder clock's slots, on instants the test chooses: no hole after a loss noticed late,
/// no burst beyond the backfill limit.
@Suite struct PlaceholderSlotsTests {
    static let interval: UInt64 = 33_333_333
    static func at(_ milliseconds: UInt64) -> MonotonicTime { MonotonicTime(nanoseconds: 10_000_000_000 + milliseconds * 1_000_000) }

    /// Every slot `slots` hands out until `now`, as the capture loop sends them.
    static func drain(_ slots: inout PlaceholderSlots, now: MonotonicTime) -> [MonotonicTime] {
        var sent: [MonotonicTime] = []
        while let due = slots.take(now: now) { sent.append(due) }
        return sent
    }

    /// A loss noticed 350 ms after the last frame (the slow VM's case): the first placeholder is
    /// the slot after that frame, and every slot up to now follows one interval apart.
    @Test func aLossNoticedLateIsFilledFromTheFirstMissedSlot() {
        let last = Self.at(0)
        var slots = PlaceholderSlots(after: last, now: Self.at(350), frameInterval: Self.interval)
        #expect(slots.skipped == 0)
        let sent = Self.drain(&slots, now: Self.at(350))
        #expect(sent.first == last.adding(nanoseconds: Self.interval))
        #expect(sent.count == 10, "\(sent.count) slots for 350 ms at 30 fps")
        #expect(zip([last] + sent, sent).allSatisfy { $1.nanoseconds(since: $0) == Int64(Self.interval) })
        #expect(slots.take(now: Self.at(350)) == nil, "nothing more is due until the next slot")
        #expect(slots.take(now: Self.at(367)) != nil)
    }

    /// Noticed within the frame interval: nothing is due yet, the first slot comes on time.
    @Test func aLossNoticedAtOnceWaitsForTheNextSlot() {
        var slots = PlaceholderSlots(after: Self.at(0), now: Self.at(10), frameInterval: Self.interval)
        #expect(slots.take(now: Self.at(10)) == nil)
        #expect(slots.take(now: Self.at(34)) == Self.at(0).adding(nanoseconds: Self.interval))
    }

    /// No frame sent before (a camera absent at start): the slate starts now.
    @Test func withoutAnEarlierFrameTheFirstSlotIsNow() {
        var slots = PlaceholderSlots(after: nil, now: Self.at(500), frameInterval: Self.interval)
        #expect(slots.take(now: Self.at(500)) == Self.at(500))
        #expect(slots.skipped == 0)
    }

    /// Three seconds behind (a reopen that blocked the thread): one second is filled, the slots
    /// before it are skipped and counted, and together they account for every slot.
    @Test func slotsBeyondTheBackfillLimitAreSkippedAndCounted() {
        let last = Self.at(0)
        var slots = PlaceholderSlots(after: last, now: Self.at(3000), frameInterval: Self.interval)
        let skipped = slots.skipped
        // Behind the first unfilled slot, the one after the last frame sent: the lag the skip is logged with.
        #expect(slots.skippedBehindNanoseconds == Self.at(3000).nanoseconds(since: last) - Int64(Self.interval))
        let sent = Self.drain(&slots, now: Self.at(3000))
        #expect(skipped + sent.count == 90, "\(skipped) skipped + \(sent.count) sent for 3 s at 30 fps")
        let limit = Int(PlaceholderSlots.backfillLimitNanoseconds / Self.interval)
        #expect((limit...limit + 1).contains(sent.count), "\(sent.count) filled after the fact")
        #expect(Self.at(3000).nanoseconds(since: sent[0]) <= Int64(PlaceholderSlots.backfillLimitNanoseconds))
    }

    /// Falling behind while already sending (a slow consumer): skipped slots are reported by the
    /// `take` that skipped them, once.
    @Test func fallingBehindLaterSkipsOnlyWhatIsPastTheLimit() {
        var slots = PlaceholderSlots(after: Self.at(0), now: Self.at(40), frameInterval: Self.interval)
        #expect(slots.take(now: Self.at(40)) != nil)
        #expect(slots.skipped == 0)
        #expect(slots.take(now: Self.at(2040)) != nil)
        #expect(slots.skipped > 0)
        #expect(slots.skippedBehindNanoseconds > Int64(PlaceholderSlots.backfillLimitNanoseconds))
        let firstSkip = slots.skipped
        #expect(slots.take(now: Self.at(2040)) != nil)
        #expect(slots.skipped == 0, "skipped slots were reported once (\(firstSkip))")
        #expect(slots.skippedBehindNanoseconds == 0)
    }
}
