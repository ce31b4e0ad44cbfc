import Foundation
import Testing
@testable import Config

/// Design invariant 6: a stream key never appears in a problem message, whatever is wrong.
@Suite struct StreamKeyTests {
    static let key = "sk_live_9f8e7d6c"

    /// Bad configs whose only secret is `key`, in every place a URL can hold one.
    static let leakyConfigs: [String] = [
        "outputs:\n  - url: http://example.com/live/\(key)\n",
        "outputs:\n  - url: rtmp:///live/\(key)\n",
        "outputs:\n  - url: rtmp://example.com/\(key)\n",
        "outputs:\n  - url: rtmp://example.com:70000/live/\(key)\n",
        "outputs:\n  - url: rtmp://[fe80::1%eth0]/live/\(key)\n",
        "outputs:\n  - url: rtmp://example.com/live?key=\(key)\n",
        "outputs:\n  - url: rtmp://example.com/live?a=1&streamtoken=\(key)\n",
        "outputs:\n  - url: rtmp://example.com:x/live/x?secret=\(key)\n",
        "outputs:\n  - url: rtmp://example.com:x/live/x?\(key)\n",
        "outputs:\n  - url: rtmp://user:\(key)@example.com:0/live/x\n",
        "outputs:\n  - url: rtmp://example.com/live/x playpath=\(key)\n",
        "outputs:\n  - url: \(key)\n",
        "outputs:\n  - url: rtmp://example.com/live/\(key)\n  - url: rtmp://example.com/live/\(key)\n",
        "outputs:\n  - url: rtmp://example.com/live/\(key)\n    max_frames: 10\n",
        "outputs:\n  - url: rtmp://example.com/live/\(key)\n    path: /tmp/a.flv\n",
        "outputs:\n  - path: rtmp://example.com/live/\(key)\n",
        "outputs:\n  - rtmp://example.com/live/\(key)\n",
        "outputs: rtmp://example.com/live/\(key)\n",
        "outputs:\n  - url: \"rtmp://example.com/live/\(key)\n",
        "outputs:\n  - url: rtmp://example.com/live/\(key)\n  - url: rtmp://example.com/live/\(key)\n    url: x\n",
        "source:\n  file: rtmp://example.com/live/\(key)\noutputs:\n  - path: /tmp/a.flv\n",
        "source:\n  device: rtmp://example.com/live/\(key)\noutputs:\n  - path: /tmp/a.flv\n",
        "outputs:\n  - url: rtmp://example.com/live/\(key)\n    rtmp://example.com/live/\(key): 1\n",
    ]

    @Test(arguments: leakyConfigs)
    func problemsNeverShowTheKey(_ yaml: String) throws {
        let error = try #require(throws: ConfigError.self) {
            try CamcastConfig.parse(yaml: yaml, fileName: "camcast.yaml")
        }
        #expect(!error.problems.isEmpty)
        #expect(!error.description.contains(Self.key), "\(error.description)")
        #expect(!String(describing: error).contains(Self.key))
    }

    @Test func overrideProblemsNeverShowTheKey() throws {
        var config = try CamcastConfig.parse(yaml: "outputs:\n  - path: /tmp/a.flv\n", fileName: "c.yaml")
        let error = try #require(throws: ConfigError.self) {
            try config.apply(overrides: ["encoder.preset": "rtmp://example.com/live/\(Self.key)"],
                             outputs: ["rtmps://example.com:99999/live/\(Self.key)", "http://h/a/\(Self.key)"])
        }
        #expect(error.problems.count == 3)
        #expect(!error.description.contains(Self.key), "\(error.description)")
    }

    @Test func environmentProblemsNeverShowTheKey() throws {
        var config = try CamcastConfig.parse(yaml: "outputs:\n  - path: /tmp/a.flv\n", fileName: "c.yaml")
        let error = try #require(throws: ConfigError.self) {
            try config.apply(environment: ["CAMCAST_OUTPUTS": "rtmp://example.com/\(Self.key)"])
        }
        #expect(error.problems.map(\.keyPath) == ["outputs[0].url"])
        #expect(!error.description.contains(Self.key), "\(error.description)")
    }

    @Test func outputDescriptionIsRedacted() {
        #expect(CamcastConfig.OutputConfig.rtmp(url: "rtmp://h/live/\(Self.key)").description == "rtmp://h/live/****")
        #expect(CamcastConfig.OutputConfig.file(path: "/tmp/a.h264", maxFrames: 5).description == "/tmp/a.h264 (max 5 frames)")
    }

    @Test func worldReadableFileWithAKeyWarns() throws {
        let path = NSTemporaryDirectory() + "camcast-perm-\(UInt32.random(in: 0...UInt32.max)).yaml"
        try "outputs:\n  - url: rtmp://example.com/live/\(Self.key)\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let config = try CamcastConfig.load(path: path)

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let warning = try #require(config.worldReadableKeyWarning(path: path))
        #expect(warning.contains(path) && warning.contains("644") && warning.contains("chmod 600"))
        #expect(!warning.contains(Self.key))

        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        #expect(config.worldReadableKeyWarning(path: path) == nil)
    }

    @Test func worldReadableFileWithoutRTMPDoesNotWarn() throws {
        let path = NSTemporaryDirectory() + "camcast-perm-\(UInt32.random(in: 0...UInt32.max)).yaml"
        try "outputs:\n  - path: /tmp/a.flv\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let config = try CamcastConfig.load(path: path)
        #expect(config.worldReadableKeyWarning(path: path) == nil)
    }
}
