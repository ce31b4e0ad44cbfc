import Media

/// Time of a sample in a generated stream (silence, a file): the origin plus the frames before it
/// at the sample rate, computed from the count each time so it never drifts by rounding.
struct SampleClock {
    let rate: Int
    let origin: MonotonicTime
    /// Sample frames delivered (or skipped) since the origin.
    var frames: Int64 = 0

    /// How far behind the clock may fall (a stalled consumer, a suspended machine) before it skips
    /// ahead instead of delivering the backlog as fast as it can.
    static let maximumLagNanoseconds: Int64 = 1_000_000_000

    init(rate: Int, origin: MonotonicTime) {
        self.rate = rate
        self.origin = origin
    }

    /// Whole seconds and the rest apart: `frames × 10⁹` overflows 64 bits after 2⁶⁴ / 10⁹ frames,
    /// 4.4 days at 48 kHz, and a silent track runs for months.
    func time(ofFrame frame: Int64) -> MonotonicTime {
        let rate = Int64(self.rate)
        let seconds = frame / rate
        let rest = frame % rate
        return origin.adding(nanoseconds: UInt64(seconds) * 1_000_000_000 + UInt64(rest * 1_000_000_000 / rate))
    }

    /// After a stall longer than `maximumLagNanoseconds`, moves the count forward in whole
    /// `step`s to the present (the origin and the grid stay), so the next run carries the present
    /// time, not one from the past. Returns the frames skipped: a source that plays content (a
    /// WAV file) skips as much of it, so a sound stays with the pictures of its instant.
    @discardableResult
    mutating func catchUp(now: MonotonicTime, step: Int) -> Int64 {
        let lag = now.nanoseconds(since: time(ofFrame: frames))
        guard lag > Self.maximumLagNanoseconds else { return 0 }
        let lagFrames = lag / 1_000_000_000 * Int64(rate) + lag % 1_000_000_000 * Int64(rate) / 1_000_000_000
        let skipped = lagFrames / Int64(step) * Int64(step)
        frames += skipped
        return skipped
    }
}
