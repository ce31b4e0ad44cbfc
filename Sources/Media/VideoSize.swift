/// A picture size in pixels, written `WIDTHxHEIGHT` on the command line and in config.
public struct VideoSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Reads `1280x720` (a lower-case or upper-case x, digits only); nil for anything else.
    /// Whether the size is usable (even, in range) is for the caller to judge and report.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.count <= 6 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let width = Int(parts[0]), let height = Int(parts[1])
        else { return nil }
        self.init(width: width, height: height)
    }

    public var description: String { "\(width)x\(height)" }
}
