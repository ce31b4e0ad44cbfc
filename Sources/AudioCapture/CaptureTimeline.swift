import Media

/// Turns a device's per-read timestamps into a continuous time line for the samples.
///
/// ALSA's stamps are the instant of the last hardware-pointer update minus the delay, and that
/// pointer moves in steps (a USB frame, a timer tick: snd-aloop's is a jiffy, 4 ms at HZ=250), so
/// consecutive reads disagree with the sample count by a few milliseconds either way. Taken as
/// they are, reads would overlap or leave holes. Instead each read's time is where the previous
/// read ended, nudged by a sixteenth of the difference to the stamp: jitter averages out, while
/// the device clock's drift against CLOCK_MONOTONIC (a USB microphone's crystal, ~100 ppm, a third
/// of a second an hour) is followed, so lip sync holds over hours. A stamp far after the expected
/// time means samples were lost (an overrun): the line jumps to it. One far before means the
/// samples overlap what was already sent (stand-in silence that ran ahead of a reopened device):
/// those samples are dropped.
struct CaptureTimeline {
    let rate: Int
    /// Where the next read is expected to start; nil before the first.
    private(set) var end: MonotonicTime?
    /// Beyond this difference a stamp is believed over the sample count.
    static let resyncNanoseconds: Int64 = 20_000_000
    static let correctionDivisor: Int64 = 16

    init(rate: Int) { self.rate = rate }

    /// The time of a read of `frames` sample frames stamped `measured`, and how many of its first
    /// frames to drop because they lie before what was already sent.
    mutating func place(frames: Int, measured: MonotonicTime) -> (timestamp: MonotonicTime, drop: Int) {
        var timestamp = measured
        var drop = 0
        if let expected = end {
            let error = measured.nanoseconds(since: expected)
            if error < -Self.resyncNanoseconds {
                drop = min(frames, Int(-error * Int64(rate) / 1_000_000_000))
                timestamp = expected
            } else if error <= Self.resyncNanoseconds {
                timestamp = MonotonicTime(nanoseconds: UInt64(Int64(expected.nanoseconds) + error / Self.correctionDivisor))
            }
        }
        end = timestamp.adding(nanoseconds: UInt64(frames - drop) * 1_000_000_000 / UInt64(rate))
        return (timestamp, drop)
    }

    /// Samples not from the device (stand-in silence) continue the line exactly.
    mutating func append(frames: Int, at timestamp: MonotonicTime) {
        end = timestamp.adding(nanoseconds: UInt64(frames) * 1_000_000_000 / UInt64(rate))
    }
}
