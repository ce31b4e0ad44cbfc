import Media

/// Time of a sample in a generated stream (silence, a file): the origin plus the frames before it
/// at the sample rate, computed from the count each time so it never drifts by rounding.
struct SampleClock {
    let rate: Int
    private(set) var origin: MonotonicTime
    /// Sample frames delivered since the origin.
    var frames: Int64 = 0

    /// How far behind the clock may fall (a stalled consumer, a suspended machine) before it skips
    /// ahead instead of delivering the backlog as fast as it can.
    static let maximumLagNanoseconds: Int64 = 1_000_000_000

    init(rate: Int, origin: MonotonicTime) {
        self.rate = rate
        self.origin = origin
    }

    func time(ofFrame frame: Int64) -> MonotonicTime {
        origin.adding(nanoseconds: UInt64(frame) * 1_000_000_000 / UInt64(rate))
    }

    /// After a stall longer than `maximumLagNanoseconds`, restarts the count at `now` so the
    /// next run carries the present time, not one from the past.
    mutating func catchUp(now: MonotonicTime) {
        if now.nanoseconds(since: time(ofFrame: frames)) > Self.maximumLagNanoseconds {
            origin = now
            frames = 0
        }
    }
}
