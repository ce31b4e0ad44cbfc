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

    /// `rangeProblem` is nil: Camcast can run at this rate.
    public var isSupported: Bool { rangeProblem == nil }

    /// The fastest rate Camcast runs at.
    public static let maximumFramesPerSecond = 240
    /// The slowest: one frame every 100 s (a time-lapse camera), so a frame interval, a duration
    /// in frames and x264's rate control per frame all stay far from overflow.
    public static let minimum = FrameRate(numerator: 1, denominator: 100)
    /// Numerator and denominator each fit V4L2's and x264's 32-bit fields, and
    /// `denominator × 10⁹` (the frame interval in nanoseconds) fits 64 bits.
    public static let maximumTerm = 1_000_000_000

    /// Why Camcast cannot run at this rate ("above the fastest rate, 240 fps"), or nil when it can: between `minimum` and
    /// `maximumFramesPerSecond`, with terms of at most `maximumTerm`. Every place a rate enters
    /// (config, flags, a y4m header, a source's settings) asks this, so later arithmetic on a rate
    /// (`frameIntervalNanoseconds`, `UInt32(numerator)`) cannot overflow.
    public var rangeProblem: String? {
        guard isValid else { return "not above 0" }
        // The terms as given, not reduced: they are what V4L2, x264 and the interval computation get.
        let rate = self
        guard rate.numerator <= Self.maximumTerm, rate.denominator <= Self.maximumTerm else {
            return "numerator or denominator above \(Self.maximumTerm)"
        }
        // Compared as fractions, exactly: the terms are at most 10⁹, the products fit 64 bits.
        guard rate.numerator * Self.minimum.denominator >= Self.minimum.numerator * rate.denominator else {
            return "below the slowest rate, \(Self.minimum.framesPerSecond) fps (one frame every \(Self.minimum.denominator) s)"
        }
        guard rate.numerator <= Self.maximumFramesPerSecond * rate.denominator else {
            return "above the fastest rate, \(Self.maximumFramesPerSecond) fps"
        }
        return nil
    }

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
