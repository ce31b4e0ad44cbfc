import Foundation
import TestSupport
import Testing

/// One broken config file, as the binary must report it.
struct BadConfigFile: Sendable, CustomTestStringConvertible {
    var name: String
    var yaml: String
    /// The exact key path the message must name ("" for a YAML syntax error).
    var keyPath: String
    /// The line the message must point at; nil when the key is missing altogether.
    var line: Int?

    var testDescription: String { name }
}

/// A valid outputs block whose URL carries a stream key that must never be printed.
private let outputs = "outputs:\n  - url: rtmp://example.com/live/\(DaemonConfigTests.streamKey)\n"

private let badConfigFiles: [BadConfigFile] = [
    // Bad YAML.
    .init(name: "bad indentation", yaml: "encoder:\n  bitrate_kbps: 2500\n bad: x\n" + outputs, keyPath: "", line: 3),
    .init(name: "unclosed quote", yaml: outputs + "source:\n  device: \"/dev/video0\n", keyPath: "", line: 5),
    .init(name: "tab indentation", yaml: "source:\n\ttype: device\n" + outputs, keyPath: "", line: 2),
    .init(name: "duplicate key", yaml: "encoder:\n  bitrate_kbps: 1000\n  bitrate_kbps: 2000\n" + outputs, keyPath: "", line: 3),
    .init(name: "unclosed flow map", yaml: "source: {type: device\n" + outputs, keyPath: "", line: 2),
    // Wrong types.
    .init(name: "integer given a word", yaml: "encoder:\n  bitrate_kbps: fast\n" + outputs, keyPath: "encoder.bitrate_kbps", line: 2),
    .init(name: "integer given a decimal", yaml: "encoder:\n  bframes: 1.5\n" + outputs, keyPath: "encoder.bframes", line: 2),
    .init(name: "integer given a list", yaml: "encoder:\n  threads: [1, 2]\n" + outputs, keyPath: "encoder.threads", line: 2),
    .init(name: "key with no value", yaml: "encoder:\n  preset:\n" + outputs, keyPath: "encoder.preset", line: 2),
    .init(name: "boolean given yes", yaml: "encoder:\n  realtime: yes\n" + outputs, keyPath: "encoder.realtime", line: 2),
    .init(name: "number given a word", yaml: "queue:\n  max_seconds: lots\n" + outputs, keyPath: "queue.max_seconds", line: 2),
    .init(name: "section given a scalar", yaml: "network: fast\n" + outputs, keyPath: "network", line: 1),
    // Out of range, not among the choices.
    .init(name: "bitrate too low", yaml: "encoder:\n  bitrate_kbps: 20\n" + outputs, keyPath: "encoder.bitrate_kbps", line: 2),
    .init(name: "max rate factor too high", yaml: "encoder:\n  max_rate_factor: 5\n" + outputs, keyPath: "encoder.max_rate_factor", line: 2),
    .init(name: "keyframe seconds too long", yaml: "encoder:\n  keyframe_interval_seconds: 61\n" + outputs,
          keyPath: "encoder.keyframe_interval_seconds", line: 2),
    .init(name: "preset typo", yaml: "encoder:\n  preset: veryfst\n" + outputs, keyPath: "encoder.preset", line: 2),
    .init(name: "unknown profile", yaml: "encoder:\n  profile: extended\n" + outputs, keyPath: "encoder.profile", line: 2),
    .init(name: "no such level", yaml: "encoder:\n  level: 3.3\n" + outputs, keyPath: "encoder.level", line: 2),
    .init(name: "unknown scaling", yaml: "encoder:\n  scaling: crop\n" + outputs, keyPath: "encoder.scaling", line: 2),
    .init(name: "odd size", yaml: "source:\n  size: 1280x721\n" + outputs, keyPath: "source.size", line: 2),
    .init(name: "fps too high", yaml: "source:\n  fps: 300\n" + outputs, keyPath: "source.fps", line: 2),
    .init(name: "too few buffers", yaml: "source:\n  buffers: 1\n" + outputs, keyPath: "source.buffers", line: 2),
    .init(name: "unknown log level", yaml: "logging:\n  level: verbose\n" + outputs, keyPath: "logging.level", line: 2),
    .init(name: "status interval zero", yaml: "status:\n  interval_seconds: 0\n" + outputs, keyPath: "status.interval_seconds", line: 2),
    .init(name: "reconnect factor too high", yaml: "reconnect:\n  factor: 11\n" + outputs, keyPath: "reconnect.factor", line: 2),
    // Unknown keys.
    .init(name: "unknown key in section", yaml: "encoder:\n  bitrate: 3000\n" + outputs, keyPath: "encoder.bitrate", line: 2),
    .init(name: "misspelled section", yaml: "encodr:\n  bitrate_kbps: 3000\n" + outputs, keyPath: "encodr", line: 1),
    .init(name: "key in the wrong section", yaml: "encoder:\n  fps: 25\n" + outputs, keyPath: "encoder.fps", line: 2),
    .init(name: "unknown output key", yaml: "outputs:\n  - uri: rtmp://example.com/live/k\n", keyPath: "outputs[0].uri", line: 2),
    // Outputs and URLs.
    .init(name: "empty outputs list", yaml: "outputs: []\n", keyPath: "outputs", line: 1),
    .init(name: "url with http scheme", yaml: "outputs:\n  - path: /tmp/a.flv\n  - url: http://example.com/live/k\n",
          keyPath: "outputs[1].url", line: 3),
    .init(name: "url without stream key", yaml: "outputs:\n  - url: rtmp://example.com/live\n", keyPath: "outputs[0].url", line: 2),
    .init(name: "url with bad port", yaml: "outputs:\n  - url: rtmp://example.com:99999/live/\(DaemonConfigTests.streamKey)\n",
          keyPath: "outputs[0].url", line: 2),
    .init(name: "path with wrong extension", yaml: "outputs:\n  - path: /tmp/cam.mp4\n", keyPath: "outputs[0].path", line: 2),
    .init(name: "duplicate outputs", yaml: outputs + "  - url: rtmp://example.com/live/\(DaemonConfigTests.streamKey)\n",
          keyPath: "outputs[1].url", line: 3),
    // Conflicting settings.
    .init(name: "baseline with B-frames", yaml: "encoder:\n  profile: baseline\n  bframes: 2\n" + outputs, keyPath: "encoder.bframes", line: 3),
    .init(name: "device type without device", yaml: "source:\n  type: device\n" + outputs, keyPath: "source.device", line: 2),
    .init(name: "test pattern with a device", yaml: "source:\n  device: /dev/video0\n" + outputs, keyPath: "source.device", line: 2),
    .init(name: "max delay below initial delay", yaml: "reconnect:\n  initial_delay_seconds: 10\n  max_delay_seconds: 5\n" + outputs,
          keyPath: "reconnect.max_delay_seconds", line: 3),
]

/// The config checks through the binary, as a user meets them: `camcast check-config FILE` and
/// `camcast run --config FILE` both list the problem at `file:line` with its key path and exit 78.
@Suite struct DaemonConfigTests {
    static let streamKey = "cOnFiG-kEy-1234"

    @Test func tableHasAtLeastThirtyFiles() {
        #expect(badConfigFiles.count >= 30)
    }

    @Test(arguments: badConfigFiles)
    func binaryReportsKeyPathAndLineWithExit78(_ bad: BadConfigFile) throws {
        let dir = try Project.scratchDirectory("badconfig")
        let file = dir.appendingPathComponent("camcast.yaml")
        try bad.yaml.write(to: file, atomically: true, encoding: .utf8)
        for arguments in [["check-config", file.path], ["run", "--config", file.path]] {
            let result = try ProcessRunner.run(Project.camcastBinary.path, arguments, timeout: 30)
            let command = arguments[0]
            #expect(result.status == 78, "\(command): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n").map(String.init)
            let position = bad.line.map { "camcast.yaml:\($0):" } ?? "camcast.yaml: "
            let keyPath = bad.keyPath.isEmpty ? "invalid YAML" : " \(bad.keyPath): "
            #expect(lines.contains { $0.contains(position) && $0.contains(keyPath) }, "\(command): \(result.stderr)")
            #expect(!result.stderr.contains(Self.streamKey), "\(command) printed the stream key")
            #expect(result.stdout.isEmpty, "nothing ran: \(result.stdout)")
        }
    }
}

/// `CAMCAST_ENCODER_SCALING` through the binary: the generic `CAMCAST_*` mechanism knows the key.
/// Whether frames are really scaled is the encoder's own test: no source but a camera delivers
/// frames of another size than the encode size (a clip sets the encode size to its own).
@Suite struct DaemonScalingEnvironmentTests {
    static func run(scaling: String) throws -> ProcessResult {
        let output = try Project.scratchDirectory("scaling-env").appendingPathComponent("out.flv").path
        let camcast = try Daemon.start(
            ["run", "--source", "testpattern", "--size", "320x240", "--duration", "1", "--output", output],
            environment: ["CAMCAST_ENCODER_SCALING": scaling])
        return try camcast.wait(timeout: 30)
    }

    @Test func aKnownValueRuns() throws {
        let result = try Self.run(scaling: "fill")
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func aBadValueNamesTheVariableKeyAndChoicesWithExit78() throws {
        let result = try Self.run(scaling: "crop")
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr.contains("$CAMCAST_ENCODER_SCALING: encoder.scaling: `crop` is not one of fit, fill or stretch"), "\(result.stderr)")
    }
}
