import Foundation
import TestSupport
import Testing

/// One input `camcast run` refuses at start, given as a config file and environment variables.
struct RefusedStart: Sendable, CustomTestStringConvertible {
    var name: String
    /// The config file; `DIR` stands for the test's scratch directory.
    var yaml: String
    var environment: [String: String] = [:]
    /// Files to make in the scratch directory first (name → bytes).
    var files: [String: [UInt8]] = [:]
    /// What the message must say.
    var says: String

    var testDescription: String { name }
}

/// A WAV file's header: 44 bytes, then `samples` zero samples.
private func wav(formatTag: Int, bits: Int, samples: Int = 480) -> [UInt8] {
    func le(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    let width = bits / 8
    return Array("RIFF".utf8) + le(36 + samples * width, 4) + Array("WAVEfmt ".utf8) + le(16, 4) + le(formatTag, 2) + le(1, 2)
        + le(48000, 4) + le(48000 * width, 4) + le(width, 2) + le(bits, 2) + Array("data".utf8) + le(samples * width, 4)
        + [UInt8](repeating: 0, count: samples * width)
}

private let flvOutput = "outputs:\n  - path: DIR/out.flv\n"
private let refusedStarts: [RefusedStart] = [
    .init(name: "no output", yaml: "source:\n  type: testpattern\n", says: "no output given"),
    .init(name: "output directory missing", yaml: "outputs:\n  - path: DIR/missing/out.flv\n", says: "does not exist"),
    .init(name: "bad environment value", yaml: flvOutput, environment: ["CAMCAST_ENCODER_BITRATE_KBPS": "fast"], says: "CAMCAST_ENCODER_BITRATE_KBPS"),
    .init(name: "misspelled environment name", yaml: flvOutput, environment: ["CAMCAST_ENCODER_BITRATE": "900"], says: "unknown setting"),
    .init(name: "outputs from the environment into a missing directory", yaml: "source:\n  type: testpattern\n",
          environment: ["CAMCAST_OUTPUTS": "DIR/missing/out.flv"], says: "does not exist"),
    .init(name: "A-law WAV", yaml: flvOutput + "audio:\n  source: file\n  file: DIR/alaw.wav\n", files: ["alaw.wav": wav(formatTag: 6, bits: 8)],
          says: "not PCM"),
    .init(name: "TLS CA file missing", yaml: flvOutput + "network:\n  tls_ca_file: DIR/ca.pem\n", says: "cannot read the TLS CA file"),
    .init(name: "camera path is a directory", yaml: flvOutput + "source:\n  type: device\n  device: /dev/shm\n", says: "is a directory"),
    .init(name: "clip without frames", yaml: flvOutput + "source:\n  type: file\n  file: DIR/empty.y4m\n",
          files: ["empty.y4m": Array("YUV4MPEG2 W48 H32 F25:1 C420jpeg\n".utf8)], says: "source.file"),
    // Issue 29: the overlay's font is opened with FreeType and the slate's JPEG decoded before
    // anything runs; each message names the key and the file.
    .init(name: "overlay font missing", yaml: flvOutput + "overlay:\n  font: DIR/gone.ttf\n  items:\n    - text: cam\n",
          says: "overlay.font: DIR/gone.ttf: no such file"),
    .init(name: "overlay font not a font", yaml: flvOutput + "overlay:\n  font: DIR/words.ttf\n  items:\n    - text: cam\n",
          files: ["words.ttf": Array("not a font at all\n".utf8)], says: "overlay.font: DIR/words.ttf"),
    .init(name: "overlay font a directory", yaml: flvOutput + "overlay:\n  font: DIR\n  items:\n    - text: cam\n",
          says: "overlay.font: DIR"),
    .init(name: "slate font not a font, no camera yet", yaml: flvOutput + "overlay:\n  font: DIR/words.ttf\n  slate_text: back soon\n",
          files: ["words.ttf": Array("not a font at all\n".utf8)], says: "overlay.font: DIR/words.ttf"),
    .init(name: "slate image not a JPEG", yaml: flvOutput + "overlay:\n  slate_image: DIR/slate.jpg\n",
          files: ["slate.jpg": Array("GIF89a, not a JPEG".utf8)], says: "overlay.slate_image: DIR/slate.jpg: is not a JPEG"),
    .init(name: "slate image cut short", yaml: flvOutput + "overlay:\n  slate_image: DIR/cut.jpg\n",
          files: ["cut.jpg": [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8)], says: "overlay.slate_image: DIR/cut.jpg"),
    // Issue 26: a libavcodec encoder is looked up in libavcodec itself before anything runs.
    .init(name: "avcodec encoder misspelt", yaml: flvOutput + "encoder:\n  backend: avcodec:libx246\n",
          says: "libavcodec has no encoder of that name; libavcodec's H.264 encoders here: avcodec:libx264"),
    .init(name: "avcodec encoder misspelt, did you mean", yaml: flvOutput + "encoder:\n  backend: avcodec:h264_v4l2mm\n",
          says: "did you mean avcodec:h264_v4l2m2m?"),
    .init(name: "avcodec encoder of sound", yaml: flvOutput + "encoder:\n  backend: avcodec:aac\n", says: "not an H.264 or H.265 encoder"),
    .init(name: "avcodec H.265 encoder with codec h264", yaml: flvOutput + "encoder:\n  backend: avcodec:libx265\n",
          says: "encodes H.265 but encoder.codec is h264"),
    .init(name: "avcodec VA-API encoder", yaml: flvOutput + "encoder:\n  backend: avcodec:h264_vaapi\n",
          says: "VA-API encoders need hardware frames"),
    // encoder.options: asked of libavcodec's option tables, with no device opened.
    .init(name: "avcodec option misspelt", yaml: flvOutput + "encoder:\n  backend: avcodec:h264_v4l2m2m\n  options:\n    num_capture_bufers: 8\n",
          says: "encoder.options.num_capture_bufers: num_capture_bufers is not allowed (avcodec:h264_v4l2m2m has no such option; `ffmpeg -h encoder=h264_v4l2m2m` lists its own, `ffmpeg -h full` the common ones); did you mean num_capture_buffers?"),
    .init(name: "avcodec option value not taken", yaml: flvOutput + "encoder:\n  backend: avcodec:libx264\n  options:\n    g: ten\n",
          says: "encoder.options.g: ten is not allowed (a value avcodec:libx264's g takes"),
    .init(name: "options with x264", yaml: flvOutput + "encoder:\n  options:\n    preset: p4\n",
          says: "encoder.options: preset is not allowed (options are for an avcodec:NAME backend; libx264 takes preset, realtime"),
    // Issue 44: a schedule that cannot be evaluated is a configuration problem, named by key and line.
    .init(name: "schedule with an unknown day", yaml: flvOutput + "schedule:\n  - {days: Mon-Fry, from: \"07:00\", to: \"09:00\"}\n",
          says: "camcast.yaml:4:12: schedule[0].days: `Fry` is not a day"),
    .init(name: "schedule window ending where it starts", yaml: flvOutput + "schedule:\n  - from: \"07:30\"\n    to: \"07:30\"\n",
          says: "camcast.yaml:5:9: schedule[0].to: `07:30` is the same as `from`"),
    .init(name: "sunset without a location", yaml: flvOutput + "schedule:\n  - {from: \"07:00\", to: sunset+15m}\n",
          says: "schedule[0].to: `sunset+15m` needs `location:`"),
    .init(name: "unknown time zone", yaml: flvOutput + "schedule:\n  - {from: \"07:00\", to: \"09:00\"}\nschedule_timezone: Europe/Berlln\n",
          says: "camcast.yaml:5:20: schedule_timezone: `Europe/Berlln` is not a time zone in /usr/share/zoneinfo"),
    .init(name: "schedule time not a time", yaml: flvOutput + "schedule:\n  - {from: \"7h30\", to: \"09:00\"}\n",
          says: "schedule[0].from: `7h30` is not a time"),
    .init(name: "latitude out of range", yaml: flvOutput + "schedule:\n  - {from: sunrise, to: sunset}\nlocation:\n  latitude: 95\n  longitude: 13\n",
          says: "camcast.yaml:6:13: location.latitude: 95 is out of range (-90…90)"),
    .init(name: "output schedule with an unknown day", yaml: flvOutput + "    schedule:\n      - {days: Sun-Thurs, from: \"07:00\", to: \"09:00\"}\n",
          says: "outputs[0].schedule[0].days: `Thurs` is not a day"),
]

/// Whatever `camcast run` refuses at start, `camcast check-config` refuses too, with the same
/// words and exit 78, and the failed run leaves no file behind (issue 25).
@Suite struct CheckConfigAgreesWithRunTests {
    /// The problem lines (`camcast: …`) of a run, without the log lines around them.
    static func problems(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("camcast: ") && !$0.hasPrefix("camcast: warning") }
    }

    @Test(arguments: refusedStarts)
    func checkConfigRefusesWhatRunRefuses(_ input: RefusedStart) throws {
        let dir = try Project.scratchDirectory("refused-start")
        for (name, bytes) in input.files { try Data(bytes).write(to: dir.appendingPathComponent(name)) }
        let config = dir.appendingPathComponent("camcast.yaml")
        try input.yaml.replacingOccurrences(of: "DIR", with: dir.path).write(to: config, atomically: true, encoding: .utf8)
        let environment = input.environment.map { "\($0.key)=\($0.value.replacingOccurrences(of: "DIR", with: dir.path))" }.sorted()
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))

        let run = try ProcessRunner.run(
            "/usr/bin/env", environment + [Project.camcastBinary.path, "run", "--config", config.path, "--duration", "1"], timeout: 60)
        let check = try ProcessRunner.run("/usr/bin/env", environment + [Project.camcastBinary.path, "check-config", config.path], timeout: 60)
        #expect(run.status == 78, "run: \(run.stderr)")
        #expect(check.status == 78, "check-config: \(check.stderr)")
        #expect(Self.problems(run.stderr) == Self.problems(check.stderr), "run:\n\(run.stderr)\ncheck-config:\n\(check.stderr)")
        let says = input.says.replacingOccurrences(of: "DIR", with: dir.path)
        #expect(Self.problems(check.stderr).contains { $0.contains(says) }, "\(check.stderr)")
        // No debris: the refused run made no file.
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) == before)
    }

    /// `--env-file` applies a unit's EnvironmentFile: its outputs and overrides are what is checked,
    /// and its summary names codec, audio and every output.
    @Test func theEnvironmentFileIsAppliedAsTheUnitWould() throws {
        let dir = try Project.scratchDirectory("env-file")
        let config = dir.appendingPathComponent("camcast.yaml")
        try "source:\n  type: testpattern\n".write(to: config, atomically: true, encoding: .utf8)
        let envFile = dir.appendingPathComponent("camcast.env")
        try "# the stream key lives here\nCAMCAST_OUTPUTS=\"rtmp://127.0.0.1/live/secretkey \(dir.path)/rec.flv\"\nCAMCAST_ENCODER_CODEC=h265\n"
            .write(to: envFile, atomically: true, encoding: .utf8)
        let good = try ProcessRunner.run(Project.camcastBinary.path, ["check-config", config.path, "--env-file", envFile.path], timeout: 60)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.contains("libx265"), "\(good.stdout)")
        #expect(good.stdout.contains("audio "), "\(good.stdout)")
        #expect(good.stdout.contains("outputs: rtmp://127.0.0.1:1935/live/****, \(dir.path)/rec.flv"), "\(good.stdout)")
        #expect(!good.stdout.contains("secretkey") && !good.stderr.contains("secretkey"))

        try "CAMCAST_ENCODER_BITRATE=900\n".write(to: envFile, atomically: true, encoding: .utf8)
        let bad = try ProcessRunner.run(Project.camcastBinary.path, ["check-config", config.path, "--env-file", envFile.path], timeout: 60)
        #expect(bad.status == 78)
        #expect(bad.stderr.contains("CAMCAST_ENCODER_BITRATE: unknown setting"), "\(bad.stderr)")
    }
}
