import Media

/// Paces the operator's notice of frame slots skipped past the backfill limit. A machine that
/// falls a second behind once (a slow reopen) skips a batch and is told at once; one that stays a
/// second behind (too slow to send placeholders in real time) skips one or two slots every few
/// frames, and a notice for each would bury the log: the first is logged at once, later ones
/// gathered and logged at most every `spacingNanoseconds`, the rest when the source stops.
/// Together the notices' `slots` are every slot skipped here.
///
/// Pure bookkeeping; the capture loop owns one and logs what it returns.
struct SkippedSlotsNotice {
    struct Due: Equatable {
        var slots: Int
        /// The furthest behind the frame clock the loop was over those slots.
        var behindNanoseconds: Int64
    }

    static let spacingNanoseconds: Int64 = 10_000_000_000

    private var pending = Due(slots: 0, behindNanoseconds: 0)
    private var lastLogged: MonotonicTime?

    /// Notes `slots` skipped while `behind` nanoseconds behind; returns what to log now, if anything.
    mutating func skipped(_ slots: Int, behind: Int64, now: MonotonicTime) -> Due? {
        guard slots > 0 else { return nil }
        pending.slots += slots
        pending.behindNanoseconds = max(pending.behindNanoseconds, behind)
        if let lastLogged, now.nanoseconds(since: lastLogged) < Self.spacingNanoseconds { return nil }
        lastLogged = now
        return takePending()
    }

    /// What is gathered and not yet logged (at the source's stop), if anything.
    mutating func flush() -> Due? {
        pending.slots > 0 ? takePending() : nil
    }

    private mutating func takePending() -> Due {
        defer { pending = Due(slots: 0, behindNanoseconds: 0) }
        return pending
    }
}
