import Testing
@testable import Config

/// `encoder.codec`: h264 (default) or h265, the H.264-only keys that do not fit H.265, and raw
/// Annex-B outputs whose name promises the other codec.
@Suite struct CodecTests {
    static func parse(_ encoder: String, outputs: String = "  - path: /tmp/a.flv") throws -> CamcastConfig {
        try CamcastConfig.parse(yaml: "encoder:\n\(encoder)\noutputs:\n\(outputs)\n", fileName: "f.yaml")
    }

    static func problems(_ encoder: String, outputs: String = "  - path: /tmp/a.flv") throws -> [ConfigProblem] {
        try #require(throws: ConfigError.self) { try parse(encoder, outputs: outputs) }.problems
    }

    @Test func h264IsTheDefaultAndH265IsTaken() throws {
        #expect(try Self.parse("  bitrate_kbps: 1000").encoder.codec == .h264)
        #expect(try Self.parse("  codec: h265").encoder.codec == .h265)
        // The shipped file writes profile: high, level: auto, entropy: auto, bframes: 0: at their
        // defaults they do not stand in the way of h265.
        #expect(try Self.parse("  codec: h265\n  profile: high\n  level: auto\n  entropy: auto\n  bframes: 0").encoder.codec == .h265)
    }

    @Test func anUnknownCodecNamesTheKeyAndTheAllowedValues() throws {
        let problems = try Self.problems("  codec: av1")
        #expect(problems.count == 1)
        let problem = try #require(problems.first)
        #expect(problem.keyPath == "encoder.codec")
        #expect(problem.line == 2)
        #expect(problem.message.contains("av1") && problem.message.contains("h264") && problem.message.contains("h265"), "\(problem)")
    }

    @Test func h264OnlyKeysAwayFromTheirDefaultsAreProblemsWithH265() throws {
        let problems = try Self.problems("  codec: h265\n  profile: main\n  level: 4.1\n  entropy: cavlc\n  bframes: 2")
        #expect(problems.map(\.keyPath).sorted() == ["encoder.bframes", "encoder.entropy", "encoder.level", "encoder.profile"])
        #expect(problems.allSatisfy { $0.message.contains("h265") }, "\(problems)")
        #expect(problems.first { $0.keyPath == "encoder.profile" }?.line == 3)
    }

    @Test func anAnnexBFileOfTheOtherCodecIsAProblem() throws {
        let h265Into264 = try Self.problems("  codec: h265", outputs: "  - path: /tmp/a.flv\n  - path: /tmp/cam.h264")
        #expect(h265Into264.map(\.keyPath) == ["outputs[1].path"])
        #expect(h265Into264.first?.message.contains("name it .h265") == true, "\(h265Into264)")
        let h264Into265 = try Self.problems("  codec: h264", outputs: "  - path: /tmp/cam.h265")
        #expect(h264Into265.map(\.keyPath) == ["outputs[0].path"])
        #expect(h264Into265.first?.message.contains("encoder.codec: h265") == true, "\(h264Into265)")
        // The matching names pass, with a frame limit too.
        let ok = try Self.parse("  codec: h265", outputs: "  - path: /tmp/cam.h265\n    max_frames: 150")
        #expect(ok.outputs == [.file(path: "/tmp/cam.h265", maxFrames: 150)])
    }

    @Test func theCommandLineOverridesTheCodecUnderTheSameRules() throws {
        var config = try Self.parse("  bitrate_kbps: 1000")
        try config.apply(overrides: ["encoder.codec": "h265"], outputs: nil)
        #expect(config.encoder.codec == .h265)
        let error = try #require(throws: ConfigError.self) {
            try config.apply(overrides: ["encoder.codec": "hevc"], outputs: nil)
        }
        #expect(error.problems.map(\.keyPath) == ["encoder.codec"])
    }
}
