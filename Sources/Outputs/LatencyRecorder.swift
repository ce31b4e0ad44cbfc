import Media

/// Per-frame latency inside Camcast: from a frame's capture timestamp to the moment the last byte
/// of its FLV tag was handed to the socket (`RTMPOutput`'s publisher thread measures it right after
/// `RTMPPublisher.send` returns — librtmp writes synchronously, so that is when the kernel has the
/// bytes — and hands the figures over a second's worth at a time, `framesSent`, one lock take).
///
/// Capture stamps reach the outputs in whole milliseconds (`MediaPacket.captureTime`), so a figure
/// may overstate the true latency by up to 1 ms. Only meaningful when stamps follow the clock (a
/// camera, the test pattern, a file played in real time); a file played flat out synthesises its
/// stamps, and the pipeline records nothing then.
public final class LatencyRecorder: Sendable {
    private let histogram = Lock(LatencyHistogram())

    public init() {}

    /// Records one video frame sent now.
    func frameSent(_ packet: MediaPacket, at now: MonotonicTime = .now()) {
        framesSent(latencies: [Self.latency(of: packet, at: now)])
    }

    /// A frame's capture → socket latency (ns) if its last byte went to the socket at `now`.
    static func latency(of packet: MediaPacket, at now: MonotonicTime = .now()) -> Int64 {
        Int64(bitPattern: now.nanoseconds) - packet.captureTime * 1_000_000
    }

    /// Records the latencies (ns) of a batch of frames a publisher sent, under one take of the lock.
    func framesSent(latencies: [Int64]) {
        guard !latencies.isEmpty else { return }
        histogram.withLock { histogram in
            for latency in latencies { histogram.add(nanoseconds: latency) }
        }
    }

    /// Percentiles so far; nil before the first frame.
    public func summary() -> LatencySummary? {
        let (count, p50, p90, p99, max) = histogram.withLock {
            ($0.count, $0.percentile(0.50), $0.percentile(0.90), $0.percentile(0.99), $0.maxNanoseconds)
        }
        guard count > 0, let p50, let p90, let p99 else { return nil }
        func ms(_ nanoseconds: Int64) -> Double { Double(nanoseconds) / 1e6 }
        return LatencySummary(frames: count, p50: ms(p50), p90: ms(p90), p99: ms(p99), max: ms(max))
    }
}
