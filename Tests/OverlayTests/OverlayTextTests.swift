#if canImport(Glibc)
import Glibc
#endif
import Media
import Testing

@testable import Overlay

/// Fonts, the glyph cache, when text is laid out again, and the clock's text.
@Suite struct OverlayTextTests {
    @Test func missingFontIsAConfigurationError() {
        #expect(throws: OverlayError.font(path: "/nonexistent/font.ttf", reason: "no such file")) {
            try OverlayStage.validate(OverlaySettings(items: [OverlayItem(text: "x")], fontPath: "/nonexistent/font.ttf"))
        }
    }

    @Test func aFileThatIsNoFontIsRefused() {
        #expect(throws: OverlayError.font(path: "/etc/hostname", reason: "not a font file FreeType can read")) {
            try OverlayStage.validate(OverlaySettings(items: [OverlayItem(text: "x")], fontPath: "/etc/hostname"))
        }
    }

    @Test func lineHeightIsTheHeightAskedFor() throws {
        for height in [16, 32, 48, 96] {
            let face = try FontFace(path: OverlayDefaults.fontPath, height: height)
            #expect(abs(face.lineHeight - height) <= max(2, height / 16))
        }
    }

    @Test func glyphsAreRasterisedOnce() throws {
        let face = try FontFace(path: OverlayDefaults.fontPath, height: 32)
        for _ in 0..<5 { _ = TextLayer(text: "12:34:56", style: OverlayItem(text: ""), font: face) }
        #expect(face.cachedGlyphCount == 7, "1 2 3 4 5 6 and the colon")
    }

    @Test func textIsLaidOutOnlyWhenItChanges() throws {
        let item = OverlayItem(text: "%H:%M:%S")
        let renderer = try OverlayRenderer(
            settings: OverlaySettings(items: [item]), clock: SystemClock(buildSeconds: 0))
        let frame = OverlayBlendTests.frame(.i420)
        let bytes = frame.copiedBytes()
        for second in [1_800_000_000, 1_800_000_000, 1_800_000_000, 1_800_000_001, 1_800_000_001] {
            var copy = bytes
            copy.withUnsafeMutableBytes { raw in
                let base = raw.bindMemory(to: UInt8.self).baseAddress!
                var saved = SavedBytes()
                #expect(renderer.blend(into: base, byteCount: raw.count, frame: frame, wallSeconds: second, saving: &saved))
                saved.restore(into: base)
            }
            #expect(copy == bytes)
        }
        #expect(renderer.layouts == 2, "once for the first second, once for the next")
    }

    @Test func clockFieldsInLocalTime() {
        let text = ClockText("Cam1 %Y-%m-%d %H:%M:%S UTC%%")
        setenv("TZ", "UTC", 1)
        tzset()
        #expect(text.text(at: 1_800_000_000, clockIsSet: true, unsetText: "--:--:--") == "Cam1 2027-01-15 08:00:00 UTC%")
    }

    @Test func unsetClockShowsTheStandInNever1970() {
        let text = ClockText("Cam1 %Y-%m-%d %H:%M:%S!")
        #expect(text.text(at: 5, clockIsSet: false, unsetText: "--:--:--") == "Cam1 --:--:--!")
        #expect(ClockText("100%% up").text(at: 5, clockIsSet: false, unsetText: "?") == "100% up")
        let clock = SystemClock(buildSeconds: 1_795_651_200, synchronisedFlag: "/nonexistent/synchronized")
        #expect(!clock.isSet(now: 5))
        #expect(clock.isSet(now: 1_795_651_200))
        let synced = SystemClock(buildSeconds: 1_795_651_200, synchronisedFlag: "/etc/hostname")
        #expect(synced.isSet(now: 5))
    }
}
