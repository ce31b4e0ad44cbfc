import Testing
import Config

@Suite struct OverrideTests {
    static let file = """
        source:
          type: device
          device: /dev/video0
        encoder:
          bitrate_kbps: 2000
          bframes: 2
        outputs:
          - url: rtmp://example.com/live/k
        """

    func fileConfig() throws -> CamcastConfig {
        try CamcastConfig.parse(yaml: Self.file, fileName: "camcast.yaml")
    }

    @Test func flagsWinOverTheFile() throws {
        var config = try fileConfig()
        try config.apply(overrides: [
            "encoder.bitrate_kbps": "4000",
            "source.size": "1920x1080",
            "source.fps": "30000/1001",
            "encoder.keyframe_interval_seconds": "1",
        ])
        #expect(config.encoder.bitrateKbps == 4000)
        #expect(config.source.size == .init(width: 1920, height: 1080))
        #expect(config.source.fps == .init(numerator: 30000, denominator: 1001))
        #expect(config.encoder.keyframeIntervalSeconds == 1)
        // What was not overridden stays as the file said.
        #expect(config.encoder.bframes == 2)
        #expect(config.source.device == "/dev/video0")
    }

    @Test func badOverridesAreAllReportedAndChangeNothing() throws {
        var config = try fileConfig()
        let before = config
        let error = try #require(throws: ConfigError.self) {
            try config.apply(overrides: ["encoder.bitrate_kbps": "20", "source.size": "1281x720", "encoder.bitrat": "1"])
        }
        #expect(config == before)
        #expect(error.problems.map(\.keyPath) == ["encoder.bitrat", "encoder.bitrate_kbps", "source.size"])
        #expect(error.problems.allSatisfy { $0.origin == "command line" && $0.line == nil })
        #expect(error.problems[0].message == "unknown setting; did you mean `encoder.bitrate_kbps`?")
        #expect(error.description.contains("command line: encoder.bitrate_kbps: 20 is out of range (50…100000)"))
    }

    @Test func emptyOverrideIsNoValueNotTheDefault() throws {
        var config = try fileConfig()
        let error = try #require(throws: ConfigError.self) { try config.apply(overrides: ["encoder.bitrate_kbps": ""]) }
        #expect(error.problems.map(\.keyPath) == ["encoder.bitrate_kbps"])
        #expect(error.problems.first?.message.hasPrefix("has no value") == true)
    }

    @Test func overridesMeetTheCrossKeyRules() throws {
        var config = try fileConfig()
        // The file's 2 B-frames were fine with profile high; a flag making it baseline is not.
        let error = try #require(throws: ConfigError.self) { try config.apply(overrides: ["encoder.profile": "baseline"]) }
        #expect(error.problems.map(\.keyPath) == ["encoder.bframes"])
    }

    @Test func newSourceTypeDropsTheOldDevice() throws {
        var config = try fileConfig()
        try config.apply(overrides: ["source.type": "testpattern"])
        #expect(config.source.type == .testpattern)
        #expect(config.source.device == nil)
    }

    @Test func newSourceTypeStillNeedsItsKey() throws {
        var config = try fileConfig()
        let error = try #require(throws: ConfigError.self) { try config.apply(overrides: ["source.type": "file"]) }
        #expect(error.problems.map(\.keyPath) == ["source.file"])
        try config.apply(overrides: ["source.type": "file", "source.file": "/srv/a.y4m"])
        #expect(config.source.file == "/srv/a.y4m" && config.source.device == nil)
    }

    @Test func commandLineOutputsReplaceTheFileList() throws {
        var config = try fileConfig()
        try config.apply(overrides: [:], outputs: ["/tmp/a.flv", "rtmp://other.example.com/app/k2"])
        #expect(config.outputs == [.file(path: "/tmp/a.flv", maxFrames: nil), .rtmp(url: "rtmp://other.example.com/app/k2")])
    }

    @Test func badCommandLineOutputsNameTheirIndex() throws {
        var config = try fileConfig()
        let error = try #require(throws: ConfigError.self) {
            try config.apply(overrides: [:], outputs: ["/tmp/a.flv", "/tmp/b.mp4", "/tmp/a.flv"])
        }
        #expect(error.problems.map(\.keyPath) == ["outputs[1].path", "outputs[2].path"])
        let emptyError = try #require(throws: ConfigError.self) { try config.apply(overrides: [:], outputs: []) }
        #expect(emptyError.problems.map(\.keyPath) == ["outputs"])
    }

    @Test func everyKeyPathIsOverridable() throws {
        #expect(CamcastConfig.overridableKeyPaths.count == 45)
        #expect(CamcastConfig.overridableKeyPaths.suffix(2) == ["http.listen", "http.credentials_file"])
        #expect(CamcastConfig.overridableKeyPaths.contains("encoder.codec"))
        #expect(CamcastConfig.overridableKeyPaths.contains("encoder.min_bitrate_kbps"))
        #expect(CamcastConfig.overridableKeyPaths.first == "source.type")
        #expect(CamcastConfig.overridableKeyPaths.contains("encoder.keyframe_interval_seconds"))
        #expect(CamcastConfig.overridableKeyPaths.contains("status.interval_seconds"))
    }

    @Test func environmentVariableNames() {
        #expect(CamcastConfig.environmentVariable(for: "encoder.bitrate_kbps") == "CAMCAST_ENCODER_BITRATE_KBPS")
        #expect(CamcastConfig.environmentVariable(for: "source.pixel_format") == "CAMCAST_SOURCE_PIXEL_FORMAT")
    }

    @Test func environmentOverridesGoThroughTheSameRules() throws {
        var config = try fileConfig()
        try config.apply(environment: [
            "CAMCAST_ENCODER_BITRATE_KBPS": "3500",
            "CAMCAST_LOGGING_LEVEL": "debug",
            "CAMCAST_CONFIG": "/etc/camcast/camcast.yaml",
            "PATH": "/usr/bin",
        ])
        #expect(config.encoder.bitrateKbps == 3500)
        #expect(config.logging.level == .debug)

        let before = config
        let error = try #require(throws: ConfigError.self) {
            try config.apply(environment: ["CAMCAST_ENCODER_BITRATE_KBPS": "99", "CAMCAST_QUEUE_MAX_SECONDS": "100",
                                           "CAMCAST_ENCODER_BITRATE": "1"])
        }
        #expect(config == before)
        #expect(error.problems.map(\.keyPath) == ["CAMCAST_ENCODER_BITRATE", "queue.max_seconds"])
        #expect(error.problems[0].message == "unknown setting; did you mean CAMCAST_ENCODER_BITRATE_KBPS?")
        #expect(error.problems[1].origin == "$CAMCAST_QUEUE_MAX_SECONDS")
        #expect(error.problems[1].description == "$CAMCAST_QUEUE_MAX_SECONDS: queue.max_seconds: 100 is out of range (0.2…30)")
    }

    @Test func scalingFromTheEnvironmentGoesThroughTheSameRules() throws {
        var config = try fileConfig()
        try config.apply(environment: ["CAMCAST_ENCODER_SCALING": "stretch"])
        #expect(config.encoder.scaling == .stretch)

        let error = try #require(throws: ConfigError.self) {
            try config.apply(environment: ["CAMCAST_ENCODER_SCALING": "zoom"])
        }
        #expect(config.encoder.scaling == .stretch, "a bad value changes nothing")
        #expect(error.description == "$CAMCAST_ENCODER_SCALING: encoder.scaling: `zoom` is not one of fit, fill or stretch")
    }

    @Test func environmentOutputsReplaceTheFileList() throws {
        var config = try fileConfig()
        try config.apply(environment: ["CAMCAST_OUTPUTS": "rtmp://a.example.com/live/k1  /tmp/rec.h264"])
        #expect(config.outputs == [.rtmp(url: "rtmp://a.example.com/live/k1"), .file(path: "/tmp/rec.h264", maxFrames: nil)])
    }
}
