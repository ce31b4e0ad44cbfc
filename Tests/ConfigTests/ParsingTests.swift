import Foundation
import Testing
import Config

@Suite struct ParsingTests {
    /// `Config/camcast.yaml`, found from this file so the test runs from any directory.
    static let exampleURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Config/camcast.yaml")

    @Test func exampleFileParsesToTheDefaults() throws {
        let config = try CamcastConfig.load(path: Self.exampleURL.path)
        // The example spells out every default, so only its output differs from `default`.
        var expected = CamcastConfig.default
        expected.outputs = [.rtmp(url: "rtmp://127.0.0.1:1935/live/camcast-example")]
        #expect(config == expected)
    }

    @Test func exampleFileDocumentsEveryKey() throws {
        let text = try String(contentsOf: Self.exampleURL, encoding: .utf8)
        for keyPath in CamcastConfig.overridableKeyPaths + ["outputs.url", "outputs.path", "outputs.max_frames"] {
            let key = keyPath.split(separator: ".").last!
            // Every key has a comment line `# key (type) [default]: meaning` or a `key (type)` entry.
            #expect(text.contains("# \(key) (") || text.contains("  \(key) ("), "no documentation for \(keyPath)")
        }
    }

    @Test func defaultsMatchTheSchema() {
        let d = CamcastConfig.default
        #expect(d.source.type == .testpattern)
        #expect(d.source.device == nil && d.source.file == nil)
        #expect(d.source.loop == true)
        #expect(d.source.pixelFormat == "auto")
        #expect(d.source.size == .init(width: 1280, height: 720))
        #expect(d.source.fps == .init(numerator: 30, denominator: 1))
        #expect(d.source.buffers == 4)
        #expect(d.encoder.bitrateKbps == 2500)
        #expect(d.encoder.maxRateFactor == 1.5)
        #expect(d.encoder.rateWindowSeconds == 1.0)
        #expect(d.encoder.keyframeIntervalSeconds == 2)
        #expect(d.encoder.keyframeIntervalFrames == nil)
        #expect(d.encoder.preset == .veryfast)
        #expect(d.encoder.realtime == true)
        #expect(d.encoder.profile == .high)
        #expect(d.encoder.level == "auto" && d.encoder.levelIDC == nil)
        #expect(d.encoder.bframes == 0)
        #expect(d.encoder.entropy == .auto)
        #expect(d.encoder.threads == 0)
        #expect(d.encoder.maxFrameDelay == nil)
        #expect(d.encoder.scaling == .fit)
        #expect(d.outputs.isEmpty)
        #expect(d.reconnect.initialDelaySeconds == 1)
        #expect(d.reconnect.factor == 1.7)
        #expect(d.reconnect.maxDelaySeconds == 30)
        #expect(d.reconnect.maxAttempts == 0)
        #expect(d.reconnect.healthyAfterSeconds == 30)
        #expect(d.network.connectTimeoutSeconds == 10)
        #expect(d.network.sendTimeoutSeconds == 10)
        #expect(d.queue.maxSeconds == 2)
        #expect(d.logging.level == .info)
        #expect(d.status.intervalSeconds == 30)
    }

    @Test func minimalFileGivesTheDefaults() throws {
        let config = try CamcastConfig.parse(yaml: "outputs:\n  - path: /tmp/cam.flv\n", fileName: "min.yaml")
        var expected = CamcastConfig.default
        expected.outputs = [.file(path: "/tmp/cam.flv", maxFrames: nil)]
        #expect(config == expected)
    }

    @Test func everyKeyIsRead() throws {
        let yaml = """
            source:
              type: device
              device: /dev/v4l/by-id/usb-cam-video-index0
              pixel_format: mjpg
              size: 1920X1080
              fps: "30000/1001"
              buffers: 8
            encoder:
              bitrate_kbps: 6000
              max_rate_factor: 2
              rate_window_seconds: 0.5
              keyframe_interval_seconds: 1
              keyframe_interval_frames: 50
              preset: Ultrafast
              realtime: false
              profile: main
              level: 4.0
              bframes: 2
              entropy: cabac
              threads: 2
              max_frame_delay: 5
              scaling: Fill
            outputs:
              - url: rtmp://live.example.com:443/app/key?token=abc
              - path: /var/lib/camcast/cam.flv
              - path: /tmp/first.h264
                max_frames: 300
            reconnect:
              initial_delay_seconds: 0.5
              factor: 2
              max_delay_seconds: 60
              max_attempts: 10
              healthy_after_seconds: 5
            network:
              connect_timeout_seconds: 5
              send_timeout_seconds: 3
            queue:
              max_seconds: 0.5
            logging:
              level: debug
            status:
              interval_seconds: 10
            """
        let c = try CamcastConfig.parse(yaml: yaml, fileName: "all.yaml")
        #expect(c.source.type == .device)
        #expect(c.source.device == "/dev/v4l/by-id/usb-cam-video-index0")
        #expect(c.source.pixelFormat == "MJPG")
        #expect(c.source.size == .init(width: 1920, height: 1080))
        #expect(c.source.fps == .init(numerator: 30000, denominator: 1001))
        #expect(c.source.buffers == 8)
        #expect(c.encoder.bitrateKbps == 6000)
        #expect(c.encoder.maxRateFactor == 2)
        #expect(c.encoder.rateWindowSeconds == 0.5)
        #expect(c.encoder.keyframeIntervalSeconds == 1)
        #expect(c.encoder.keyframeIntervalFrames == 50)
        #expect(c.encoder.preset == .ultrafast)
        #expect(c.encoder.realtime == false)
        #expect(c.encoder.profile == .main)
        #expect(c.encoder.level == "4" && c.encoder.levelIDC == 40)
        #expect(c.encoder.bframes == 2)
        #expect(c.encoder.entropy == .cabac)
        #expect(c.encoder.threads == 2)
        #expect(c.encoder.maxFrameDelay == 5)
        #expect(c.encoder.scaling == .fill)
        #expect(c.outputs == [
            .rtmp(url: "rtmp://live.example.com:443/app/key?token=abc"),
            .file(path: "/var/lib/camcast/cam.flv", maxFrames: nil),
            .file(path: "/tmp/first.h264", maxFrames: 300),
        ])
        #expect(c.reconnect.initialDelaySeconds == 0.5)
        #expect(c.reconnect.factor == 2)
        #expect(c.reconnect.maxDelaySeconds == 60)
        #expect(c.reconnect.maxAttempts == 10)
        #expect(c.reconnect.healthyAfterSeconds == 5)
        #expect(c.network.connectTimeoutSeconds == 5)
        #expect(c.network.sendTimeoutSeconds == 3)
        #expect(c.queue.maxSeconds == 0.5)
        #expect(c.logging.level == .debug)
        #expect(c.status.intervalSeconds == 10)
    }

    @Test func fileSourceWithLoop() throws {
        let c = try CamcastConfig.parse(
            yaml: "source:\n  type: file\n  file: /srv/clip.Y4M\n  loop: false\noutputs:\n  - path: /tmp/a.flv\n",
            fileName: "f.yaml")
        #expect(c.source.type == .file)
        #expect(c.source.file == "/srv/clip.Y4M")
        #expect(c.source.loop == false)
    }

    @Test func sectionWithEveryKeyCommentedOutIsEmpty() throws {
        let c = try CamcastConfig.parse(yaml: "encoder:\n  # bitrate_kbps: 100\noutputs:\n  - path: /tmp/a.flv\n", fileName: "c.yaml")
        #expect(c.encoder == CamcastConfig.default.encoder)
    }

    @Test func anchorsAndAliasesResolve() throws {
        let c = try CamcastConfig.parse(
            yaml: "network:\n  connect_timeout_seconds: &t 7\n  send_timeout_seconds: *t\noutputs:\n  - path: /tmp/a.flv\n",
            fileName: "a.yaml")
        #expect(c.network.sendTimeoutSeconds == 7)
    }

    @Test func everyProblemInOneFileIsReportedInLineOrder() throws {
        let yaml = """
            source:
              size: 641x480
              type: device
            encoder:
              bitrate_kbps: 10
              preset: quick
              profile: baseline
              bframes: 3
            outputs:
              - url: ftp://example.com/live/k
              - path: /tmp/cam.avi
            logging:
              levle: debug
            reconnect:
              initial_delay_seconds: 20
              max_delay_seconds: 10
            """
        let error = try #require(throws: ConfigError.self) {
            try CamcastConfig.parse(yaml: yaml, fileName: "many.yaml")
        }
        let found = error.problems.map { "\($0.line.map(String.init) ?? "-") \($0.keyPath)" }
        #expect(found == [
            "2 source.size",
            "3 source.device",
            "5 encoder.bitrate_kbps",
            "6 encoder.preset",
            "8 encoder.bframes",
            "10 outputs[0].url",
            "11 outputs[1].path",
            "13 logging.levle",
            "16 reconnect.max_delay_seconds",
        ])
    }

    @Test func problemDescriptionIsFileLineColumnKeyMessage() throws {
        let error = try #require(throws: ConfigError.self) {
            try CamcastConfig.parse(yaml: "encoder:\n  bitrate_kbps: 20\noutputs:\n  - path: /tmp/a.flv\n", fileName: "camcast.yaml")
        }
        #expect(error.description == "camcast.yaml:2:17: encoder.bitrate_kbps: 20 is out of range (50…100000)")
        #expect(ConfigError.exitCode == 78)
    }

    @Test func badScalingNamesKeyLineColumnAndTheChoices() throws {
        let error = try #require(throws: ConfigError.self) {
            try CamcastConfig.parse(yaml: "encoder:\n  scaling: crop\noutputs:\n  - path: /tmp/a.flv\n", fileName: "camcast.yaml")
        }
        #expect(error.description == "camcast.yaml:2:12: encoder.scaling: `crop` is not one of fit, fill or stretch")
    }

    @Test(arguments: ["fit", "fill", "stretch"])
    func everyScalingParses(_ name: String) throws {
        let config = try CamcastConfig.parse(
            yaml: "encoder:\n  scaling: \(name)\noutputs:\n  - path: /tmp/a.flv\n", fileName: "camcast.yaml")
        #expect(config.encoder.scaling.rawValue == name)
    }

    @Test func missingFileIsAProblemNamingThePath() throws {
        let path = "/nonexistent-\(UInt32.random(in: 0...UInt32.max))/camcast.yaml"
        let error = try #require(throws: ConfigError.self) { try CamcastConfig.load(path: path) }
        #expect(error.problems.count == 1)
        #expect(error.problems.first?.origin == path)
        #expect(error.problems.first?.message.contains("no such file") == true)
        #expect(error.description.hasPrefix(path + ": "))
    }

    @Test func directoryIsAProblemNamingThePath() throws {
        let error = try #require(throws: ConfigError.self) { try CamcastConfig.load(path: NSTemporaryDirectory()) }
        #expect(error.problems.first?.origin == NSTemporaryDirectory())
        #expect(error.problems.first?.message.contains("directory") == true)
    }

    @Test func loadReportsProblemsWithThePathAsOrigin() throws {
        let path = NSTemporaryDirectory() + "camcast-load-\(UInt32.random(in: 0...UInt32.max)).yaml"
        try "encoder:\n  preset: warp\noutputs:\n  - path: /tmp/a.flv\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(throws: ConfigError.self) { try CamcastConfig.load(path: path) }
        #expect(error.problems.map(\.description) == [
            "\(path):2:11: encoder.preset: `warp` is not one of ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow or placebo",
        ])
    }
}
