/// What to burn into the picture: text items, the font they are drawn in, and what a clock shows
/// while the system's clock is not set yet. Plain values; `Config` fills them from `overlay:`.
public struct OverlaySettings: Sendable, Equatable {
    /// The default font: DejaVu Sans Mono from Debian's fonts-dejavu-core (fixed-width digits,
    /// so a running clock does not jitter).
    public static let defaultFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
    public static let defaultClockUnsetText = "--:--:--"

    public var items: [OverlayItem]
    public var fontPath: String
    /// Shown instead of the strftime fields while the clock is not set (never a 1970 date).
    public var clockUnsetText: String

    public init(items: [OverlayItem], fontPath: String = defaultFontPath, clockUnsetText: String = defaultClockUnsetText) {
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

/// Where an item sits: against a corner or an edge's middle, or in the centre.
public enum OverlayPosition: String, Sendable, CaseIterable {
    case topLeft = "top-left"
    case top = "top"
    case topRight = "top-right"
    case centre = "centre"
    case bottomLeft = "bottom-left"
    case bottom = "bottom"
    case bottomRight = "bottom-right"
}

/// What keeps the text readable on any picture: an outline around the glyphs, or a box behind
/// them whose opacity is `alpha` (0 transparent … 1 opaque), or nothing.
public enum OverlayContrast: Sendable, Equatable {
    case none
    case outline(OverlayColour)
    case box(OverlayColour, alpha: Double)
}

/// An sRGB colour, 8 bits a channel.
public struct OverlayColour: Sendable, Equatable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let white = OverlayColour(red: 255, green: 255, blue: 255)
    public static let black = OverlayColour(red: 0, green: 0, blue: 0)

    /// Limited-range BT.601 Y, Cb, Cr, as the encoder signals its pictures.
    var ycbcr: (y: Int, cb: Int, cr: Int) {
        let (r, g, b) = (Int(red), Int(green), Int(blue))
        let y = 16 + (66 * r + 129 * g + 25 * b + 128) >> 8
        let cb = 128 + (-38 * r - 74 * g + 112 * b + 128) >> 8
        let cr = 128 + (112 * r - 94 * g - 18 * b + 128) >> 8
        return (y, cb, cr)
    }
}
