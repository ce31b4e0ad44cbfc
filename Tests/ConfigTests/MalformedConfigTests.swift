import Testing
import Config

/// One broken config file and the single problem it must produce.
struct MalformedCase: Sendable, CustomTestStringConvertible {
    let name: String
    let yaml: String
    /// The exact key path the problem must name ("" for YAML syntax errors).
    let keyPath: String
    /// The line the problem must point at; nil when there is no line (a required key left out).
    let line: Int?
    /// A fragment of the message: the bad value or the rule it broke.
    let says: String

    var testDescription: String { name }
}

/// A valid outputs block, appended after the case's own lines so their line numbers stay as written.
private let output = "outputs:\n  - url: rtmp://example.com/live/k\n"

private let malformedCases: [MalformedCase] = [
    // YAML syntax: reported with the line of the fault, no key path.
    .init(name: "bad indentation", yaml: "encoder:\n  bitrate_kbps: 2500\n bad: x\n" + output,
          keyPath: "", line: 3, says: "did not find expected key"),
    .init(name: "unclosed quote", yaml: output + "source:\n  device: \"/dev/video0\n",
          keyPath: "", line: 5, says: "found unexpected end of stream"),
    .init(name: "tab indentation", yaml: "source:\n\ttype: device\n" + output,
          keyPath: "", line: 2, says: "a tab in the indentation; YAML indents with spaces only"),
    .init(name: "duplicate key", yaml: "encoder:\n  bitrate_kbps: 1000\n  bitrate_kbps: 2000\n" + output,
          keyPath: "", line: 3, says: "`bitrate_kbps` appears more than once in the same map (first at line 2)"),
    .init(name: "two documents", yaml: output + "---\nsource: {}\n",
          keyPath: "", line: 3, says: "more than one YAML document"),
    .init(name: "unclosed flow map", yaml: "source: {type: device\n" + output,
          keyPath: "", line: 2, says: "did not find expected ',' or '}'"),
    .init(name: "root is a list", yaml: "- source\n- encoder\n",
          keyPath: "", line: 1, says: "expected a map of sections"),

    // Wrong types.
    .init(name: "integer given a word", yaml: "encoder:\n  bitrate_kbps: fast\n" + output,
          keyPath: "encoder.bitrate_kbps", line: 2, says: "`fast` is not an integer (allowed: 50…100000)"),
    .init(name: "integer given a decimal", yaml: "encoder:\n  bframes: 1.5\n" + output,
          keyPath: "encoder.bframes", line: 2, says: "`1.5` is not an integer"),
    .init(name: "integer given a list", yaml: "encoder:\n  bitrate_kbps: [1000, 2000]\n" + output,
          keyPath: "encoder.bitrate_kbps", line: 2, says: "got a list"),
    .init(name: "key with no value", yaml: "encoder:\n  bitrate_kbps:\n" + output,
          keyPath: "encoder.bitrate_kbps", line: 2, says: "has no value"),
    .init(name: "boolean given yes", yaml: "encoder:\n  realtime: yes\n" + output,
          keyPath: "encoder.realtime", line: 2, says: "`yes` is not true or false"),
    .init(name: "number given a word", yaml: "queue:\n  max_seconds: lots\n" + output,
          keyPath: "queue.max_seconds", line: 2, says: "`lots` is not a number"),
    .init(name: "number given nan", yaml: "status:\n  interval_seconds: .nan\n" + output,
          keyPath: "status.interval_seconds", line: 2, says: "is not a number"),
    .init(name: "section given a scalar", yaml: "encoder: fast\n" + output,
          keyPath: "encoder", line: 1, says: "expected a map of settings"),

    // Out of range and not among the choices.
    .init(name: "bitrate too low", yaml: "encoder:\n  bitrate_kbps: 20\n" + output,
          keyPath: "encoder.bitrate_kbps", line: 2, says: "20 is out of range (50…100000)"),
    .init(name: "max rate factor too high", yaml: "encoder:\n  max_rate_factor: 5\n" + output,
          keyPath: "encoder.max_rate_factor", line: 2, says: "5 is out of range (1…4)"),
    .init(name: "keyframe frames zero", yaml: "encoder:\n  keyframe_interval_frames: 0\n" + output,
          keyPath: "encoder.keyframe_interval_frames", line: 2, says: "0 is out of range (1…10000)"),
    .init(name: "threads negative", yaml: "encoder:\n  threads: -1\n" + output,
          keyPath: "encoder.threads", line: 2, says: "-1 is out of range (0…64)"),
    .init(name: "preset typo", yaml: "encoder:\n  preset: veryfst\n" + output,
          keyPath: "encoder.preset", line: 2, says: "did you mean `veryfast`?"),
    .init(name: "unknown profile", yaml: "encoder:\n  profile: extended\n" + output,
          keyPath: "encoder.profile", line: 2, says: "`extended` is not one of baseline, main or high"),
    .init(name: "scaling typo", yaml: "encoder:\n  scaling: strech\n" + output,
          keyPath: "encoder.scaling", line: 2, says: "`strech` is not one of fit, fill or stretch; did you mean `stretch`?"),
    .init(name: "no such level", yaml: "encoder:\n  level: 3.3\n" + output,
          keyPath: "encoder.level", line: 2, says: "`3.3` is not an H.264 level"),
    .init(name: "odd size", yaml: "source:\n  size: 1280x721\n" + output,
          keyPath: "source.size", line: 2, says: "1280x721 has an odd width or height"),
    .init(name: "size without height", yaml: "source:\n  size: 1280\n" + output,
          keyPath: "source.size", line: 2, says: "`1280` is not a size"),
    .init(name: "size too large", yaml: "source:\n  size: 8000x4000\n" + output,
          keyPath: "source.size", line: 2, says: "8000x4000 is out of range (16x16…7680x4320)"),
    .init(name: "fps zero", yaml: "source:\n  fps: 0\n" + output,
          keyPath: "source.fps", line: 2, says: "0 is out of range"),
    .init(name: "fps too high", yaml: "source:\n  fps: 300\n" + output,
          keyPath: "source.fps", line: 2, says: "300 is out of range (above the fastest rate, 240 fps)"),
    .init(name: "fps zero denominator", yaml: "source:\n  fps: \"30/0\"\n" + output,
          keyPath: "source.fps", line: 2, says: "`30/0` is not a frame rate"),
    .init(name: "too few buffers", yaml: "source:\n  buffers: 1\n" + output,
          keyPath: "source.buffers", line: 2, says: "1 is out of range (2…32)"),
    .init(name: "unknown pixel format", yaml: "source:\n  pixel_format: YUV\n" + output,
          keyPath: "source.pixel_format", line: 2, says: "`YUV` is not one of auto, YUYV"),
    .init(name: "device not under /dev", yaml: "source:\n  type: device\n  device: video0\n" + output,
          keyPath: "source.device", line: 3, says: "`video0` is not a device path"),
    .init(name: "file of unknown format", yaml: "source:\n  type: file\n  file: /tmp/clip.mp4\n" + output,
          keyPath: "source.file", line: 3,
          says: "`/tmp/clip.mp4` is a .mp4 file: Camcast does not read containers or compressed video. Convert it to a y4m clip once, `ffmpeg -i /tmp/clip.mp4 -pix_fmt yuv420p /tmp/clip.y4m`, then play /tmp/clip.y4m"),
    .init(name: "y4m with a raw pixel format", yaml: "source:\n  type: file\n  file: /tmp/clip.y4m\n  pixel_format: YUYV\n" + output,
          keyPath: "source.pixel_format", line: 4, says: "is a .y4m clip, which says its own format"),
    .init(name: "unknown log level", yaml: "logging:\n  level: verbose\n" + output,
          keyPath: "logging.level", line: 2, says: "`verbose` is not one of trace"),
    .init(name: "connect timeout too short", yaml: "network:\n  connect_timeout_seconds: 0.5\n" + output,
          keyPath: "network.connect_timeout_seconds", line: 2, says: "0.5 is out of range (1…120)"),

    // Unknown keys, with a suggestion.
    .init(name: "unknown key in section", yaml: "encoder:\n  bitrate: 3000\n" + output,
          keyPath: "encoder.bitrate", line: 2, says: "unknown key `bitrate`; did you mean `bitrate_kbps`?"),
    .init(name: "misspelled section", yaml: "encodr:\n  bitrate_kbps: 3000\n" + output,
          keyPath: "encodr", line: 1, says: "did you mean `encoder`?"),
    .init(name: "key in the wrong section", yaml: "encoder:\n  fps: 25\n" + output,
          keyPath: "encoder.fps", line: 2, says: "did you mean `source.fps`?"),
    .init(name: "dashes for underscores", yaml: "reconnect:\n  max-attempts: 3\n" + output,
          keyPath: "reconnect.max-attempts", line: 2, says: "did you mean `max_attempts`?"),
    .init(name: "unknown output key", yaml: "outputs:\n  - uri: rtmp://example.com/live/k\n",
          keyPath: "outputs[0].uri", line: 2, says: "did you mean `url`?"),
    .init(name: "unknown key far from any", yaml: "status:\n  colour: blue\n" + output,
          keyPath: "status.colour", line: 2, says: "(allowed: interval_seconds)"),

    // Outputs.
    .init(name: "empty file", yaml: "",
          keyPath: "outputs", line: nil, says: "is required"),
    .init(name: "empty outputs list", yaml: "outputs: []\n",
          keyPath: "outputs", line: 1, says: "is an empty list"),
    .init(name: "outputs with no value", yaml: "outputs:\n",
          keyPath: "outputs", line: 1, says: "has no value"),
    .init(name: "outputs as a map", yaml: "outputs:\n  url: rtmp://example.com/live/k\n",
          keyPath: "outputs", line: 2, says: "expected a list"),
    .init(name: "output as a bare string", yaml: "outputs:\n  - /var/lib/camcast/cam.flv\n",
          keyPath: "outputs[0]", line: 2, says: "expected a map with `url:`"),
    .init(name: "output with url and path", yaml: "outputs:\n  - url: rtmp://example.com/live/k\n    path: /tmp/a.flv\n",
          keyPath: "outputs[0]", line: 2, says: "has both `url` and `path`"),
    .init(name: "output with neither", yaml: "outputs:\n  - max_frames: 10\n",
          keyPath: "outputs[0]", line: 2, says: "needs `url: rtmp://host/app/key`"),
    .init(name: "url with http scheme", yaml: "outputs:\n  - path: /tmp/a.flv\n  - url: http://example.com/live/k\n",
          keyPath: "outputs[1].url", line: 3, says: "has scheme `http`"),
    .init(name: "url without stream key", yaml: "outputs:\n  - url: rtmp://example.com/live\n",
          keyPath: "outputs[0].url", line: 2, says: "has the application `live` but no stream key after it; the key is missing"),
    .init(name: "url without host", yaml: "outputs:\n  - url: rtmp:///live/k\n",
          keyPath: "outputs[0].url", line: 2, says: "has no host"),
    .init(name: "url with bad port", yaml: "outputs:\n  - url: rtmp://example.com:99999/live/k\n",
          keyPath: "outputs[0].url", line: 2, says: "has port `99999`; a port is 1…65535"),
    .init(name: "url that is not a URL", yaml: "outputs:\n  - url: example.com/live/k\n",
          keyPath: "outputs[0].url", line: 2, says: "is not an RTMP URL"),
    // Config checks URLs with the publisher's own parser: what librtmp cannot publish to fails here.
    .init(name: "url with rtmpt scheme", yaml: "outputs:\n  - url: rtmpt://example.com:80/live/k\n",
          keyPath: "outputs[0].url", line: 2, says: "`rtmpt://example.com:80/live/****` has scheme `rtmpt`; only rtmp:// and rtmps://"),
    .init(name: "url with a zone id in brackets", yaml: "outputs:\n  - url: rtmp://[fe80::1%eth0]/live/k\n",
          keyPath: "outputs[0].url", line: 2, says: "has brackets that do not hold an IPv6 address"),
    .init(name: "url with user info", yaml: "outputs:\n  - url: rtmp://cam:pw@example.com/live/k\n",
          keyPath: "outputs[0].url", line: 2, says: "`rtmp://****@example.com/live/****` has user info"),
    .init(name: "url with too many path elements", yaml: "outputs:\n  - url: rtmp://example.com/a/b/c/d/k\n",
          keyPath: "outputs[0].url", line: 2, says: "has 4 application path elements; librtmp supports at most 3"),
    .init(name: "url that is empty", yaml: "outputs:\n  - url: \"\"\n",
          keyPath: "outputs[0].url", line: 2, says: "is empty (expected rtmp[s]://host[:port]/app/key)"),
    .init(name: "path with wrong extension", yaml: "outputs:\n  - path: /tmp/cam.mp4\n",
          keyPath: "outputs[0].path", line: 2, says: "must end in .flv"),
    .init(name: "max_frames on an flv file", yaml: "outputs:\n  - path: /tmp/cam.flv\n    max_frames: 100\n",
          keyPath: "outputs[0].max_frames", line: 3, says: "only applies to .h264"),
    .init(name: "max_frames on rtmp", yaml: "outputs:\n  - url: rtmp://example.com/live/k\n    max_frames: 100\n",
          keyPath: "outputs[0].max_frames", line: 3, says: "only applies to .h264"),
    .init(name: "max_frames zero", yaml: "outputs:\n  - path: /tmp/cam.h264\n    max_frames: 0\n",
          keyPath: "outputs[0].max_frames", line: 3, says: "0 is out of range"),
    .init(name: "duplicate outputs", yaml: "outputs:\n  - url: rtmp://example.com/live/k\n  - path: /tmp/a.flv\n  - url: rtmp://example.com/live/k\n",
          keyPath: "outputs[2].url", line: 4, says: "is the same output as outputs[0]"),

    // Conflicts between keys.
    .init(name: "baseline with B-frames", yaml: "encoder:\n  profile: baseline\n  bframes: 2\n" + output,
          keyPath: "encoder.bframes", line: 3, says: "not allowed with profile baseline"),
    .init(name: "baseline with CABAC", yaml: "encoder:\n  entropy: cabac\n  profile: baseline\n" + output,
          keyPath: "encoder.entropy", line: 2, says: "cabac is not allowed with profile baseline"),
    .init(name: "device type without device", yaml: "source:\n  type: device\n" + output,
          keyPath: "source.device", line: 2, says: "is required when source.type is device"),
    .init(name: "file type without file", yaml: "source:\n  type: file\n" + output,
          keyPath: "source.file", line: 2, says: "is required when source.type is file"),
    .init(name: "test pattern with a device", yaml: "source:\n  type: testpattern\n  device: /dev/video0\n" + output,
          keyPath: "source.device", line: 3, says: "is set but source.type is testpattern"),
    .init(name: "default type with a file", yaml: "source:\n  file: /tmp/clip.y4m\n" + output,
          keyPath: "source.file", line: 2, says: "is set but source.type is testpattern"),
    .init(name: "loop on a device", yaml: "source:\n  type: device\n  device: /dev/video0\n  loop: false\n" + output,
          keyPath: "source.loop", line: 4, says: "only applies to file sources"),
    .init(name: "max delay below initial delay", yaml: "reconnect:\n  initial_delay_seconds: 10\n  max_delay_seconds: 5\n" + output,
          keyPath: "reconnect.max_delay_seconds", line: 3, says: "5 is less than reconnect.initial_delay_seconds (10)"),
]

@Suite struct MalformedConfigTests {
    @Test func tableHasAtLeastThirtyCases() {
        #expect(malformedCases.count >= 30)
    }

    @Test(arguments: malformedCases)
    func reportsExactlyOneProblemAtTheKeyAndLine(_ malformed: MalformedCase) throws {
        let error = try #require(throws: ConfigError.self) {
            try CamcastConfig.parse(yaml: malformed.yaml, fileName: "camcast.yaml")
        }
        #expect(error.problems.count == 1, "\(error)")
        let problem = try #require(error.problems.first)
        #expect(problem.origin == "camcast.yaml")
        #expect(problem.keyPath == malformed.keyPath)
        #expect(problem.line == malformed.line, "\(problem)")
        #expect(problem.message.contains(malformed.says), "\(problem)")
    }
}
