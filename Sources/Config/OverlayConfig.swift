extension CamcastConfig {
    /// `overlay:` — text and a clock burned into the picture (the Overlay stage), and the font.
    public struct OverlayConfig: Sendable, Equatable {
        /// DejaVu Sans Mono (Debian's fonts-dejavu-core): fixed-width digits, so a clock does not jitter.
        public static let defaultFont = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"

        /// `overlay.items`: drawn in order, a later one over an earlier one where they overlap.
        public var items: [Item] = []
        /// `overlay.font`: a TrueType/OpenType file FreeType can read.
        public var font = defaultFont
        /// `overlay.clock_unset_text`: shown in place of the strftime fields while the system's
        /// clock is not set yet (no RTC, NTP not synchronised).
        public var clockUnsetText = "--:--:--"
        /// `overlay.slate_text`: shown (centred, in `font`) while the camera is gone and no good
        /// frame of it is at hand; `\n` starts a new line. Nil keeps the plain slate.
        public var slateText: String?
        /// `overlay.slate_image`: a JPEG shown behind the slate's text, stretched to the stream's size.
        public var slateImage: String?

        public init() {}

        /// One line of text.
        public struct Item: Sendable, Equatable {
            /// Literal text with optional strftime fields (`%Y-%m-%d %H:%M:%S`), local time.
            public var text: String
            public var position: Position = .topLeft
            public var margin = 16
            public var height = 32
            public var colour = Colour.white
            public var contrast = Contrast.outline(.black)

            public init(text: String) {
                self.text = text
            }
        }

        public enum Position: String, Sendable, CaseIterable {
            case topLeft = "top-left"
            case top = "top"
            case topRight = "top-right"
            case centre = "centre"
            case bottomLeft = "bottom-left"
            case bottom = "bottom"
            case bottomRight = "bottom-right"
        }

        /// An outline around the glyphs, a box behind them (opacity 0…1), or nothing.
        public enum Contrast: Sendable, Equatable {
            case none
            case outline(Colour)
            case box(Colour, alpha: Double)
        }

        /// An sRGB colour: a name or #RRGGBB.
        public struct Colour: Sendable, Equatable {
            public var red: UInt8
            public var green: UInt8
            public var blue: UInt8

            public init(red: UInt8, green: UInt8, blue: UInt8) {
                self.red = red
                self.green = green
                self.blue = blue
            }

            public static let white = Colour(red: 255, green: 255, blue: 255)
            public static let black = Colour(red: 0, green: 0, blue: 0)

            static let names: [(String, Colour)] = [
                ("white", .white), ("black", .black), ("grey", Colour(red: 128, green: 128, blue: 128)),
                ("gray", Colour(red: 128, green: 128, blue: 128)), ("red", Colour(red: 255, green: 0, blue: 0)),
                ("green", Colour(red: 0, green: 255, blue: 0)), ("blue", Colour(red: 0, green: 0, blue: 255)),
                ("yellow", Colour(red: 255, green: 255, blue: 0)), ("cyan", Colour(red: 0, green: 255, blue: 255)),
                ("magenta", Colour(red: 255, green: 0, blue: 255)),
            ]

            /// A colour name (white, black, grey, red, green, blue, yellow, cyan, magenta) or
            /// #RRGGBB (the # may be left out); nil for anything else.
            public init?(parsing text: String) {
                let trimmed = String(text.filter { !$0.isWhitespace }).lowercased()
                if let named = Self.names.first(where: { $0.0 == trimmed }) {
                    self = named.1
                    return
                }
                let hex = trimmed.hasPrefix("#") ? String(trimmed.dropFirst()) : trimmed
                guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return nil }
                self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
            }
        }
    }
}
