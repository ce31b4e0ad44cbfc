import Testing
@testable import Config

@Suite struct ValueParsingTests {
    typealias FrameRate = CamcastConfig.SourceConfig.FrameRate
    typealias Size = CamcastConfig.SourceConfig.Size

    @Test(arguments: [
        ("30", FrameRate(numerator: 30, denominator: 1)),
        ("30000/1001", FrameRate(numerator: 30000, denominator: 1001)),
        ("12.5", FrameRate(numerator: 25, denominator: 2)),
        ("29.97", FrameRate(numerator: 2997, denominator: 100)),
        ("0.5", FrameRate(numerator: 1, denominator: 2)),
    ])
    func frameRateParses(_ text: String, _ expected: FrameRate) {
        #expect(FrameRate(parsing: text) == expected)
    }

    @Test(arguments: ["", "x", "30/", "/1001", "30/0", "1/2/3", "1e3", "nan", "-", "30.", "1.1234567"])
    func frameRateRejects(_ text: String) {
        #expect(FrameRate(parsing: text) == nil)
    }

    @Test(arguments: [("1280x720", Size(width: 1280, height: 720)), ("640X480", Size(width: 640, height: 480))])
    func sizeParses(_ text: String, _ expected: Size) {
        #expect(Size(parsing: text) == expected)
    }

    @Test(arguments: ["1280", "x720", "1280x", "1280x720x2", "-1280x720", "12 80x720", "1280*720", "99999999x1"])
    func sizeRejects(_ text: String) {
        #expect(Size(parsing: text) == nil)
    }

    @Test(arguments: [("1", 10), ("1.1", 11), ("3.1", 31), ("4", 40), ("5.2", 52)])
    func levelIDCIsTenTimesTheLevel(_ level: String, _ idc: Int) {
        var encoder = CamcastConfig.EncoderConfig()
        encoder.level = level
        #expect(encoder.levelIDC == idc)
    }

    @Test(arguments: [("level: 4", "4"), ("level: \"4.0\"", "4"), ("level: 3.1", "3.1"), ("level: AUTO", "auto")])
    func levelSpellingsNormalize(_ line: String, _ level: String) throws {
        let c = try CamcastConfig.parse(yaml: "encoder:\n  \(line)\noutputs:\n  - path: /a.flv\n", fileName: "l.yaml")
        #expect(c.encoder.level == level)
    }

    @Test(arguments: [("bitrate_kbps", "bitrat", 6), ("kitten", "sitting", 3), ("", "abc", 3), ("same", "same", 0), ("encodr", "encoder", 1)])
    func editDistanceIsSymmetric(_ a: String, _ b: String, _ distance: Int) {
        #expect(KeySuggestion.editDistance(a, b) == distance)
        #expect(KeySuggestion.editDistance(b, a) == distance)
    }

    @Test func suggestionsPickTheClosestKnownName() {
        let keys = ["bitrate_kbps", "bframes", "preset", "profile", "threads"]
        #expect(KeySuggestion.closest(to: "bitrate", among: keys) == "bitrate_kbps")
        #expect(KeySuggestion.closest(to: "bitrateKbps", among: keys) == "bitrate_kbps")
        #expect(KeySuggestion.closest(to: "profil", among: keys) == "profile")
        #expect(KeySuggestion.closest(to: "thread", among: keys) == "threads")
        #expect(KeySuggestion.closest(to: "colour", among: keys) == nil)
    }
}
