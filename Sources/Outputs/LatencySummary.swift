/// Latency percentiles over the frames sent so far, in milliseconds.
public struct LatencySummary: Sendable, Equatable, CustomStringConvertible {
    public var frames: Int
    public var p50: Double
    public var p90: Double
    public var p99: Double
    public var max: Double

    public init(frames: Int, p50: Double, p90: Double, p99: Double, max: Double) {
        self.frames = frames
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.max = max
    }

    /// Log metadata: `latency_p50_ms` … `latency_max_ms`, `latency_frames`.
    package var metadata: [String: String] {
        [
            "latency_frames": "\(frames)", "latency_p50_ms": Self.format(p50), "latency_p90_ms": Self.format(p90),
            "latency_p99_ms": Self.format(p99), "latency_max_ms": Self.format(max),
        ]
    }

    public var description: String {
        "frames \(frames), p50 \(Self.format(p50)) ms, p90 \(Self.format(p90)) ms, p99 \(Self.format(p99)) ms, max \(Self.format(max)) ms"
    }

    /// One decimal: the histogram's resolution is 0.1 ms.
    static func format(_ milliseconds: Double) -> String {
        let tenths = Int((milliseconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
