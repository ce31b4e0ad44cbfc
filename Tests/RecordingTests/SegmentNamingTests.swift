import Testing

@testable import Recording

@Suite struct SegmentNamingTests {
    let naming = SegmentNaming(pattern: RecordingSettings.defaultNamePattern)

    @Test func namesItMakesMatch() {
        let name = naming.name(at: 1_790_000_000)
        #expect(name.hasSuffix(".mp4"))
        #expect(name.contains("/"))
        #expect(naming.matches(name))
        #expect(naming.matches(SegmentNaming.numbered(name, 2)))
    }

    @Test func foreignNamesDoNotMatch() {
        #expect(!naming.matches("holiday.mp4"))
        #expect(!naming.matches("2026-11-26/12-00-00.mp4"))
        #expect(!naming.matches("2026-11-26/12-00-00+0100.mkv"))
        #expect(!naming.matches("2026-11-26/12-00-00+0100-x.mp4"))
        #expect(naming.matches("2026-11-26/12-00-00+0100.mp4"))
        #expect(naming.matches("2026-11-26/12-00-00-0500-3.mp4"))
    }
}
