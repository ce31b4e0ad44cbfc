/// Why an overlay could not be set up. Every case is a configuration problem (exit 78).
public enum OverlayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The font file is missing, unreadable, or not a font FreeType can read.
    case font(path: String, reason: String)
    /// The font has no glyph size of the height asked for (a bitmap-only font).
    case fontSize(path: String, height: Int)
    /// FreeType itself would not start (out of memory).
    case library(code: Int32)

    public var description: String {
        switch self {
        case .font(let path, let reason): "\(path): \(reason)"
        case .fontSize(let path, let height): "font \(path) cannot be drawn \(height) pixels high"
        case .library(let code): "FreeType could not start (error \(code))"
        }
    }
}
