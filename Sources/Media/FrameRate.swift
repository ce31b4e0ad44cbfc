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

    public var description: String {
        denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)"
    }
}
