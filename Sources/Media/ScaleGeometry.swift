/// Where a source frame goes in the encoded picture for a `ScalingMode`: which part of the source
/// is used and which part of the destination it fills. Offsets are even, so the 4:2:0 chroma planes
/// line up with the luma; destination sizes are even too.
public struct ScaleGeometry: Hashable, Sendable {
    public struct Rect: Hashable, Sendable {
        public var x, y, width, height: Int

        public init(x: Int, y: Int, width: Int, height: Int) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }
    }

    public var source: Rect
    public var destination: Rect

    /// True when the picture leaves bars around it that must be painted black.
    public func hasBars(width: Int, height: Int) -> Bool {
        destination != Rect(x: 0, y: 0, width: width, height: height)
    }

    public init(sourceWidth w: Int, sourceHeight h: Int, width W: Int, height H: Int, mode: ScalingMode) {
        let wholeSource = Rect(x: 0, y: 0, width: w, height: h)
        let wholeDestination = Rect(x: 0, y: 0, width: W, height: H)
        // Compare w/h with W/H without division: positive when the source is wider.
        let wider = w * H - h * W
        func even(_ value: Double, max limit: Int) -> Int { min(limit, max(2, Int(value.rounded()) & ~1)) }
        switch mode {
        case .stretch:
            (source, destination) = (wholeSource, wholeDestination)
        case .fit:
            source = wholeSource
            if wider > 0 {
                let height = even(Double(h) * Double(W) / Double(w), max: H)
                destination = Rect(x: 0, y: ((H - height) / 2) & ~1, width: W, height: height)
            } else if wider < 0 {
                let width = even(Double(w) * Double(H) / Double(h), max: W)
                destination = Rect(x: ((W - width) / 2) & ~1, y: 0, width: width, height: H)
            } else {
                destination = wholeDestination
            }
        case .fill:
            destination = wholeDestination
            if wider > 0 {
                let width = min(w, max(1, Int((Double(h) * Double(W) / Double(H)).rounded())))
                source = Rect(x: ((w - width) / 2) & ~1, y: 0, width: width, height: h)
            } else if wider < 0 {
                let height = min(h, max(1, Int((Double(w) * Double(H) / Double(W)).rounded())))
                source = Rect(x: 0, y: ((h - height) / 2) & ~1, width: w, height: height)
            } else {
                source = wholeSource
            }
        }
    }
}
