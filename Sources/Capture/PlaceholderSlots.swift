import Media

/// Where placeholder frames go on the frame clock while the camera is away: every slot after the
/// last frame sent, whenever the loss is noticed.
///
/// A loss is noticed late: DQBUF fails some time after the last good frame, a silence is bridged
/// only after half a second, a reopen blocks the capture thread. The slots already past when the
/// placeholders start (or when the thread comes back from a slow reopen) are filled after the
/// fact, stamped at their own instants, so the stream's time line has no hole however long the
/// noticing took on this machine — up to `backfillLimitNanoseconds`. Slots further back are
/// skipped (counted, as a frame the driver dropped would be): a burst of more than a second of
/// placeholders would only hold up the live frames behind it.
///
/// Pure arithmetic on CLOCK_MONOTONIC instants; the capture loop owns one and sends a placeholder
/// whenever `next` is not in the future.
struct PlaceholderSlots {
    /// The longest stretch of past slots filled after the fact.
    static let backfillLimitNanoseconds: UInt64 = 1_000_000_000

    let frameInterval: UInt64
    /// The slot the next placeholder is stamped with.
    private(set) var next: MonotonicTime

    /// Slots from the one after `last` (the last frame sent; nil: none yet, so from `now`).
    /// `skipped` is how many of the past slots are too far back to fill.
    init(after last: MonotonicTime?, now: MonotonicTime, frameInterval: UInt64) {
        self.frameInterval = frameInterval
        next = last.map { $0.adding(nanoseconds: frameInterval) } ?? now
        skipped = 0
        skipUnfillable(now: now)
    }

    /// Past slots given up on since the last `take` (or the start), for the caller's counters.
    private(set) var skipped: Int
    /// How far behind the frame clock the loop was when it gave them up (ns; 0 when none were):
    /// what the operator's log explains the skip with.
    private(set) var skippedBehindNanoseconds: Int64 = 0

    /// The slot a placeholder is sent for now, or nil if the next one is still to come. Moves on by
    /// one slot; past slots beyond the backfill limit are skipped first (`skipped`).
    mutating func take(now: MonotonicTime) -> MonotonicTime? {
        skipped = 0
        skippedBehindNanoseconds = 0
        skipUnfillable(now: now)
        guard next <= now else { return nil }
        defer { next = next.adding(nanoseconds: frameInterval) }
        return next
    }

    private mutating func skipUnfillable(now: MonotonicTime) {
        let behind = now.nanoseconds(since: next)
        guard behind > Int64(Self.backfillLimitNanoseconds) else { return }
        let count = (UInt64(behind) - Self.backfillLimitNanoseconds + frameInterval - 1) / frameInterval
        skipped += Int(count)
        skippedBehindNanoseconds = behind
        next = next.adding(nanoseconds: count * frameInterval)
    }
}
