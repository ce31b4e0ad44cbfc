/// Counts of latencies in 0.1 ms buckets up to 1 s, plus the exact maximum: fixed memory (40 KB)
/// however long the daemon runs, and percentiles to 0.1 ms, which is finer than the millisecond
/// capture stamps they are measured from.
struct LatencyHistogram: Sendable {
    static let bucketNanoseconds: Int64 = 100_000
    static let bucketCount = 10_000

    private var buckets = [UInt32](repeating: 0, count: bucketCount)
    /// Samples of 1 s or more; their percentile is reported as the maximum.
    private var overflow = 0
    private(set) var count = 0
    private(set) var maxNanoseconds: Int64 = 0

    /// Adds one sample; a negative one (a stamp later than now) counts as 0.
    mutating func add(nanoseconds: Int64) {
        let value = max(0, nanoseconds)
        count += 1
        maxNanoseconds = max(maxNanoseconds, value)
        // Bucket i holds (i × width, (i + 1) × width], so a sample on an edge reports as itself.
        let index = value == 0 ? 0 : (value - 1) / Self.bucketNanoseconds
        if index < Self.bucketCount {
            buckets[Int(index)] &+= 1
        } else {
            overflow += 1
        }
    }

    /// The smallest bucket upper edge at or below which `fraction` of the samples lie, capped at
    /// the maximum; nil without samples.
    func percentile(_ fraction: Double) -> Int64? {
        guard count > 0 else { return nil }
        let rank = max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for (index, bucket) in buckets.enumerated() where bucket > 0 {
            seen += Int(bucket)
            if seen >= rank { return min(Int64(index + 1) * Self.bucketNanoseconds, maxNanoseconds) }
        }
        return maxNanoseconds
    }
}
