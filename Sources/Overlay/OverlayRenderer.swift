import Media

/// Draws the configured items onto frames: one font per item height, each item's text laid out
/// again only when it changes, blended over the rows and columns it covers.
///
/// `@unchecked Sendable` because it is only ever used inside `OverlayStage`'s lock (FreeType's
/// faces and the layout cache are not thread-safe); it moves between threads only as a whole, when
/// a reload hands a new one in.
final class OverlayRenderer: @unchecked Sendable {
    let settings: OverlaySettings
    private let fonts: [FontFace]
    private let texts: [ClockText]
    private let clock: SystemClock
    private var placed: [PlacedText?]
    /// How many times a text was laid out (for tests: once per change, not per frame).
    private(set) var layouts = 0

    /// Opens the font at every height the items ask for; a missing or unreadable font throws.
    init(settings: OverlaySettings, clock: SystemClock = SystemClock()) throws(OverlayError) {
        self.settings = settings
        var byHeight: [Int: FontFace] = [:]
        var fonts: [FontFace] = []
        for item in settings.items {
            if let face = byHeight[item.height] {
                fonts.append(face)
            } else {
                let face = try FontFace(path: settings.fontPath, height: item.height)
                byHeight[item.height] = face
                fonts.append(face)
            }
        }
        if settings.items.isEmpty {
            // Nothing to draw, but a bad font is still the configuration's problem.
            _ = try FontFace(path: settings.fontPath, height: 16)
        }
        self.fonts = fonts
        texts = settings.items.map { ClockText($0.text) }
        self.clock = clock
        placed = Array(repeating: nil, count: settings.items.count)
    }

    /// The texts as they read at `wallSeconds`.
    func currentTexts(atWallSeconds seconds: Int) -> [String] {
        let isSet = texts.contains(where: \.hasFields) ? clock.isSet(now: seconds) : true
        return texts.map { $0.text(at: seconds, clockIsSet: isSet, unsetText: settings.clockUnsetText) }
    }

    /// Blends every item into `frame`'s bytes at `base` and returns what it overwrote; nil if the
    /// frame's layout does not hold the text (nothing written then).
    func blend(
        into base: UnsafeMutablePointer<UInt8>, byteCount: Int, frame: VideoFrame, wallSeconds: Int
    ) -> SavedBytes? {
        let strings = currentTexts(atWallSeconds: wallSeconds)
        var ranges: [Range<Int>] = []
        for index in settings.items.indices {
            if let current = placed[index], current.text == strings[index],
                current.fits(format: frame.pixelFormat, width: frame.width, height: frame.height)
            {
                // Laid out already.
            } else {
                layouts += 1
                placed[index] = PlacedText(
                    text: strings[index], item: settings.items[index], font: fonts[index], format: frame.pixelFormat,
                    frameWidth: frame.width, frameHeight: frame.height)
            }
            guard let text = placed[index] else { return nil }
            guard let touched = text.touchedRanges(planes: frame.planes, byteCount: byteCount) else { return nil }
            ranges += touched
        }
        var saved = SavedBytes()
        saved.save(ranges, from: base)
        for case let text? in placed {
            text.blend(into: base, planes: frame.planes)
        }
        return saved
    }
}
