@testable import AudioCapture
import Media
import Testing

@Suite struct CaptureTimelineTests {
    static let t0 = MonotonicTime(nanoseconds: 10_000_000_000)
    static let period: UInt64 = 20_000_000  // 960 frames at 48 kHz

    /// Stamps jittering ±4 ms (a jiffy) around the true times give a line that never overlaps
    /// by more than the correction and stays within a millisecond of the truth.
    @Test func jitterIsSmoothed() {
        var timeline = CaptureTimeline(rate: 48_000)
        let jitter: [Int64] = [0, 4, -4, 3, -3, 4, 0, -4, 2, -2]
        var previousEnd: MonotonicTime?
        for k in 0..<500 {
            let truth = Self.t0.adding(nanoseconds: UInt64(k) * Self.period)
            let measured = MonotonicTime(nanoseconds: UInt64(Int64(truth.nanoseconds) + jitter[k % jitter.count] * 1_000_000))
            let (timestamp, drop) = timeline.place(frames: 960, measured: measured)
            #expect(drop == 0)
            if let previousEnd { #expect(abs(timestamp.nanoseconds(since: previousEnd)) <= 300_000, "read \(k)") }
            #expect(abs(timestamp.nanoseconds(since: truth)) < 1_000_000, "read \(k)")
            previousEnd = timestamp.adding(nanoseconds: Self.period)
        }
    }

    /// A device clock 100 ppm slow against CLOCK_MONOTONIC: after an hour's worth of reads the
    /// line is still within a millisecond of the stamps (the sample count alone would be 360 ms off).
    @Test func driftIsFollowed() {
        var timeline = CaptureTimeline(rate: 48_000)
        var last = (timestamp: Self.t0, measured: Self.t0)
        for k in 0..<180_000 {
            let measured = Self.t0.adding(nanoseconds: UInt64(Double(k) * Double(Self.period) * 1.0001))
            last = (timeline.place(frames: 960, measured: measured).timestamp, measured)
        }
        #expect(abs(last.timestamp.nanoseconds(since: last.measured)) < 1_000_000)
    }

    /// Lost samples (an overrun) show as a jump; samples before the line's end (a device back
    /// while stand-in silence ran ahead) are dropped so time never goes back.
    @Test func gapsJumpAndOverlapsAreDropped() {
        var timeline = CaptureTimeline(rate: 48_000)
        _ = timeline.place(frames: 960, measured: Self.t0)
        let late = Self.t0.adding(nanoseconds: 520_000_000)
        #expect(timeline.place(frames: 960, measured: late) == (late, 0))
        timeline.append(frames: 4800, at: late.adding(nanoseconds: Self.period))  // 100 ms of silence
        let end = late.adding(nanoseconds: Self.period + 100_000_000)
        // A 100 ms read stamped 50 ms before the end: its first half is already covered.
        let (timestamp, drop) = timeline.place(frames: 4800, measured: MonotonicTime(nanoseconds: end.nanoseconds - 50_000_000))
        #expect(timestamp == end)
        #expect(drop == 2400)
        #expect(timeline.end == end.adding(nanoseconds: 50_000_000))
        // Entirely covered: all of it goes.
        #expect(timeline.place(frames: 480, measured: Self.t0).drop == 480)
    }
}
