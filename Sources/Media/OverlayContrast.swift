/// What keeps text readable on any picture: an outline around the glyphs, a box behind them whose
/// opacity is `alpha` (0 transparent … 1 opaque), or nothing.
public enum OverlayContrast: Sendable, Equatable {
    case none
    case outline(OverlayColour)
    case box(OverlayColour, alpha: Double)
}
