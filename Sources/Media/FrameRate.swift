/// Frames per second as an exact fraction (30/1, 30000/1001), as V4L2 and x264 both express it.
public struct FrameRate: Sendable, Hashable, CustomStringConvertible {
    public var numerator: Int
    public var denominator: Int

    public init(numerator: Int, denominator: Int = 1) {
        self.numerator = numerator
        self.denominator = denominator
    }

    public var framesPerSecond: Double { Double(numerator) / Double(denominator) }

    /// Nanoseconds between two frames, rounded to the nearest nanosecond.
    public var frameIntervalNanoseconds: UInt64 {
        (UInt64(denominator) * 1_000_000_000 + UInt64(numerator) / 2) / UInt64(numerator)
    }

    public var isValid: Bool { numerator > 0 && denominator > 0 }

    /// The same rate in lowest terms: drivers say 25 fps as 1000/25000 seconds per frame, which
    /// should read, log and compare as 25.
    public var reduced: FrameRate {
        var (a, b) = (abs(numerator), abs(denominator))
        while b != 0 { (a, b) = (b, a % b) }
        guard a > 1 else { return self }
        return FrameRate(numerator: numerator / a, denominator: denominator / a)
    }

    public var description: String {
        denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)"
    }
}
