import Media

/// What to burn into the picture: text items, the font they are drawn in, and what a clock shows
/// while the system's clock is not set yet. Plain values; `Config` fills them from `overlay:`.
public struct OverlaySettings: Sendable, Equatable {
    public var items: [OverlayItem]
    public var fontPath: String
    /// Shown instead of the strftime fields while the clock is not set (never a 1970 date).
    public var clockUnsetText: String

    public init(items: [OverlayItem], fontPath: String = OverlayDefaults.fontPath, clockUnsetText: String = OverlayDefaults.clockUnsetText) {
        self.items = items
        self.fontPath = fontPath
        self.clockUnsetText = clockUnsetText
    }
}

/// One line of text on the picture.
public struct OverlayItem: Sendable, Equatable {
    /// Literal text with optional strftime fields (`%Y-%m-%d %H:%M:%S`), in local time.
    public var text: String
    public var position: OverlayPosition
    /// Pixels between the text's box and the picture's edges it is placed against.
    public var margin: Int
    /// The line's height in pixels (ascender to descender).
    public var height: Int
    public var colour: OverlayColour
    public var contrast: OverlayContrast

    public init(
        text: String, position: OverlayPosition = .topLeft, margin: Int = 16, height: Int = 32,
        colour: OverlayColour = .white, contrast: OverlayContrast = .outline(.black)
    ) {
        self.text = text
        self.position = position
        self.margin = margin
        self.height = height
        self.colour = colour
        self.contrast = contrast
    }
}
