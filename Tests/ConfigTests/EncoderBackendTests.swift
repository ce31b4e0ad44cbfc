import Testing
@testable import Config

/// `encoder.backend`: auto (the codec's library), x264/x265, or avcodec:NAME. The file's rules
/// check the spelling and the library against the codec; whether libavcodec has NAME is the
/// encoder settings' check (CheckConfigAgreesWithRunTests runs both commands on it).
@Suite struct EncoderBackendTests {
    static func parse(_ encoder: String) throws -> CamcastConfig {
        try CamcastConfig.parse(yaml: "encoder:\n\(encoder)\noutputs:\n  - path: /tmp/a.flv\n", fileName: "f.yaml")
    }

    static func problems(_ encoder: String) throws -> [ConfigProblem] {
        try #require(throws: ConfigError.self) { try parse(encoder) }.problems
    }

    @Test func autoIsTheDefaultAndAvcodecNamesAreTaken() throws {
        #expect(try Self.parse("  bitrate_kbps: 1000").encoder.backend == "auto")
        #expect(try Self.parse("  backend: avcodec:h264_v4l2m2m").encoder.backend == "avcodec:h264_v4l2m2m")
        #expect(try Self.parse("  codec: h265\n  backend: avcodec:hevc_v4l2m2m").encoder.backend == "avcodec:hevc_v4l2m2m")
        #expect(try Self.parse("  backend: X264").encoder.backend == "x264")
        #expect(try Self.parse("  codec: h265\n  backend: x265").encoder.backend == "x265")
    }

    @Test(arguments: ["ffmpeg", "avcodec:", "avcodec:lib x264", "h264_v4l2m2m"])
    func aBackendOfAnotherShapeIsAProblemNamingTheForms(_ value: String) throws {
        let problems = try Self.problems("  backend: \"\(value)\"")
        #expect(problems.map(\.keyPath) == ["encoder.backend"])
        #expect(problems.first?.message.contains("avcodec:NAME") == true, "\(problems)")
        #expect(problems.first?.line == 2)
    }

    @Test func theOtherCodecsLibraryIsAProblem() throws {
        let problems = try Self.problems("  codec: h265\n  backend: x264")
        #expect(problems.map(\.keyPath) == ["encoder.backend"])
        #expect(problems.first?.message.contains("x264 does not encode h265") == true, "\(problems)")
    }

    @Test func optionsAreAMapOfNamesAndValuesInFileOrder() throws {
        let config = try Self.parse("  backend: avcodec:h264_nvenc\n  options:\n    preset: p4\n    tune: ll\n    g: 60\n    x264-params: \"keyint=30:min-keyint=30\"")
        #expect(config.encoder.options.map(\.name) == ["preset", "tune", "g", "x264-params"])
        #expect(config.encoder.options.map(\.value) == ["p4", "ll", "60", "keyint=30:min-keyint=30"])
        #expect(try Self.parse("  bitrate_kbps: 1000").encoder.options.isEmpty)
        // All commented out: no options.
        #expect(try Self.parse("  options:\n    # preset: p4").encoder.options.isEmpty)
    }

    @Test func optionsOfAnotherShapeAreProblemsAtTheirLine() throws {
        let list = try Self.problems("  options:\n    - preset")
        #expect(list.map(\.keyPath) == ["encoder.options"])
        #expect(list.first?.message.contains("expected a map of libavcodec option names and values") == true, "\(list)")
        let nested = try Self.problems("  options:\n    preset:\n      fast: 1\n    tune:")
        #expect(nested.map(\.keyPath) == ["encoder.options.preset", "encoder.options.tune"])
        #expect(nested.map(\.line) == [4, 5])
        #expect(nested.allSatisfy { $0.message.contains("expected a value such as a word or a number") }, "\(nested)")
    }

    @Test func aMistypedOptionsKeyIsAnUnknownKeyWithASuggestion() throws {
        let problems = try Self.problems("  option:\n    preset: p4")
        #expect(problems.map(\.keyPath) == ["encoder.option"])
        #expect(problems.first?.message.contains("did you mean `options`?") == true, "\(problems)")
    }
}
