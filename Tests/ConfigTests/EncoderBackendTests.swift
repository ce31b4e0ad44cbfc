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
}
