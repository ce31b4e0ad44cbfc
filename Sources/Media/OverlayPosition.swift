/// Where a line of text sits on the picture: against a corner or an edge's middle, or in the
/// centre. Shared by `Config` (which reads it from `overlay.items[N].position`) and `Overlay`
/// (which places the text), so neither has to know the other.
public enum OverlayPosition: String, Sendable, CaseIterable {
    case topLeft = "top-left"
    case top = "top"
    case topRight = "top-right"
    case centre = "centre"
    case bottomLeft = "bottom-left"
    case bottom = "bottom"
    case bottomRight = "bottom-right"
}
