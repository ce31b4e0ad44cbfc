import Media

/// Time per frame a size offers (`VIDIOC_ENUM_FRAMEINTERVALS`, `struct v4l2_frmivalenum`), as
/// V4L2 expresses it: seconds per frame as a fraction (1/30 is 30 fps). For a range, `shortest`
/// is the fastest rate and `longest` the slowest.
public struct V4L2FrameIntervalInfo: Codable, Sendable, Hashable, CustomStringConvertible {
    public var kind: V4L2RangeKind
    public var numerator: Int
    public var denominator: Int
    public var longestNumerator: Int?
    public var longestDenominator: Int?

    public init(kind: V4L2RangeKind, numerator: Int, denominator: Int, longestNumerator: Int? = nil, longestDenominator: Int? = nil) {
        self.kind = kind
        self.numerator = numerator
        self.denominator = denominator
        self.longestNumerator = longestNumerator
        self.longestDenominator = longestDenominator
    }

    /// The (fastest) frame rate: the interval inverted.
    public var frameRate: FrameRate { FrameRate(numerator: denominator, denominator: numerator).reduced }

    public var description: String {
        let fastest = Self.fps(denominator, numerator)
        guard kind != .discrete, let n = longestNumerator, let d = longestDenominator else { return fastest }
        return "\(Self.fps(d, n))-\(fastest)"
    }

    /// "30", "29.97", "7.5" — a rate as people write it, from a fraction.
    static func fps(_ numerator: Int, _ denominator: Int) -> String {
        guard denominator > 0 else { return "?" }
        if numerator % denominator == 0 { return "\(numerator / denominator)" }
        let hundredths = (numerator * 100 + denominator / 2) / denominator
        let text = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
        return text.hasSuffix("0") ? String(text.dropLast()) : text
    }
}
