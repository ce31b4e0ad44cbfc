/// The one size rule: what every source, the config check and the encoders accept. x264 and x265
/// take smaller and larger pictures, but below 16 pixels a macroblock row is not whole and above
/// 8K no V4L2 camera, player or ingest Camcast targets goes.
extension VideoSize {
    public static let smallestSupported = VideoSize(width: 16, height: 16)
    public static let largestSupported = VideoSize(width: 7680, height: 4320)
    /// How the range reads in messages and in the config schema: `16x16…7680x4320`.
    public static let supportedRangeText = "\(smallestSupported)…\(largestSupported)"

    public var isWithinSupportedRange: Bool {
        (Self.smallestSupported.width...Self.largestSupported.width).contains(width)
            && (Self.smallestSupported.height...Self.largestSupported.height).contains(height)
    }

    /// 4:2:0 chroma halves both dimensions, so both must be even.
    public var isEven: Bool { width % 2 == 0 && height % 2 == 0 }

    /// Why a source cannot produce pictures of this size, or nil when it can. `requiringEven`
    /// for sources that hand over 4:2:0 planes as they are (a camera's packed formats are
    /// converted, so an odd camera size is the converter's business).
    public func unsupportedReason(requiringEven: Bool) -> String? {
        guard isWithinSupportedRange else {
            return "must be from \(Self.smallestSupported) to \(Self.largestSupported)"
        }
        guard !requiringEven || isEven else { return "4:2:0 needs even width and height" }
        return nil
    }
}
