import Media

/// Draws the configured items onto frames: one font per item height, each item's text laid out
/// again only when it changes, blended over the rows and columns it covers.
///
/// `@unchecked Sendable` because it is only ever used inside `OverlayStage`'s lock (FreeType's
/// faces and the layout cache are not thread-safe); it moves between threads only as a whole, when
/// a reload hands a new one in. (It cannot be a plain non-Sendable value kept in that `Lock`: the
/// blend is handed the frame's memory, a pointer the compiler counts as the caller's, which would
/// tie the lock's contents to the calling thread.)
final class OverlayRenderer: @unchecked Sendable {
    let settings: OverlaySettings
    /// The font at every item height.
    private let fonts: [Int: FontFace]
    private let texts: [ClockText]
    private let clock: SystemClock
    private var placed: [PlacedText?]
    /// The second `strings` were made for: a frame in the same second reuses them (no strftime,
    /// no strings made per frame).
    private var textsSecond: Int?
    private var strings: [String] = []
    /// The bytes the placed texts touch in a frame laid out as `touchedLayout` (nil: to be worked out).
    private var touched: [Range<Int>] = []
    private var touchedLayout: FrameLayout?
    /// How many times a text was laid out (for tests: once per change, not per frame).
    private(set) var layouts = 0

    /// Opens the font at every height the items ask for; a missing or unreadable font throws.
    init(settings: OverlaySettings, clock: SystemClock = SystemClock()) throws(OverlayError) {
        self.settings = settings
        var fonts: [Int: FontFace] = [:]
        for item in settings.items where fonts[item.height] == nil {
            fonts[item.height] = try FontFace(path: settings.fontPath, height: item.height)
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

    /// Blends every item into `frame`'s bytes at `base` (the stream's picture, at its size: items
    /// are given in its pixels), keeping what it overwrote in `saved`
    /// (whose buffers are reused frame after frame); false if the frame's layout does not hold the
    /// text (nothing written then).
    ///
    /// Most frames repeat the last one's second and layout: they only save, blend and (later) put
    /// back, with the texts, the layers and the byte ranges kept from that frame.
    func blend(
        into base: UnsafeMutablePointer<UInt8>, byteCount: Int, frame: VideoFrame, wallSeconds: Int, saving saved: inout SavedBytes
    ) -> Bool {
        let layout = FrameLayout(frame: frame, byteCount: byteCount)
        if textsSecond != wallSeconds {
            strings = currentTexts(atWallSeconds: wallSeconds)
            textsSecond = wallSeconds
            touchedLayout = nil
        }
        if touchedLayout != layout {
            touchedLayout = nil
            guard place(frame: frame, byteCount: byteCount) else { return false }
            touchedLayout = layout
        }
        saved.save(from: base, ranges: touched)
        for index in placed.indices {
            placed[index]?.blend(into: base, planes: frame.planes)
        }
        return true
    }

    /// Lays out every text that changed (or whose frame did) and lists the bytes they touch.
    private func place(frame: VideoFrame, byteCount: Int) -> Bool {
        touched.removeAll(keepingCapacity: true)
        for index in settings.items.indices {
            if let current = placed[index], current.text == strings[index],
                current.fits(format: frame.pixelFormat, width: frame.width, height: frame.height)
            {
                // Laid out already.
            } else {
                layouts += 1
                let item = settings.items[index]
                guard let font = fonts[item.height] else { return false }
                placed[index] = PlacedText(
                    text: strings[index], item: item, font: font,
                    format: frame.pixelFormat, frameWidth: frame.width, frameHeight: frame.height)
            }
            guard let text = placed[index],
                text.appendTouchedRanges(planes: frame.planes, byteCount: byteCount, to: &touched)
            else { return false }
        }
        return true
    }
}

/// What the byte ranges blending touches depend on, besides the texts.
private struct FrameLayout: Equatable {
    var format: PixelFormat
    var width: Int
    var height: Int
    var planes: [VideoPlane]
    var byteCount: Int

    init(frame: VideoFrame, byteCount: Int) {
        (format, width, height, planes, self.byteCount) = (frame.pixelFormat, frame.width, frame.height, frame.planes, byteCount)
    }
}
