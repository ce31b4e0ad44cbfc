import Media

extension CamcastConfig {
    /// `overlay:` — text and a clock burned into the picture (the Overlay stage), and the font.
    public struct OverlayConfig: Sendable, Equatable {
        /// `overlay.items`: drawn in order, a later one over an earlier one where they overlap.
        public var items: [Item] = []
        /// `overlay.font`: a TrueType/OpenType file FreeType can read.
        public var font = OverlayDefaults.fontPath
        /// `overlay.clock_unset_text`: shown in place of the strftime fields while the system's
        /// clock is not set yet (no RTC, NTP not synchronised).
        public var clockUnsetText = OverlayDefaults.clockUnsetText
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
            public var position = OverlayPosition.topLeft
            public var margin = 16
            public var height = 32
            public var colour = OverlayColour.white
            public var contrast = OverlayContrast.outline(.black)

            public init(text: String) {
                self.text = text
            }
        }
    }
}
