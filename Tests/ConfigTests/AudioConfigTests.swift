import Testing
import Config

@Suite struct AudioConfigTests {
    static let output = "outputs:\n  - path: /tmp/out.flv\n"

    static func parse(_ audio: String) throws -> CamcastConfig {
        try CamcastConfig.parse(yaml: output + "audio:\n" + audio, fileName: "camcast.yaml")
    }

    @Test func defaultsToSilent48kMono128() throws {
        let audio = try CamcastConfig.parse(yaml: Self.output, fileName: "camcast.yaml").audio
        #expect(audio.source == .silent)
        #expect(audio.device == nil && audio.file == nil)
        #expect(audio.sampleRate == 48000 && audio.channels == 1 && audio.bitrateKbps == 128)
    }

    @Test func readsEverySource() throws {
        #expect(try Self.parse("  source: none\n").audio.source == .none)
        let device = try Self.parse("  source: device\n  device: hw:1,0\n  channels: 2\n  sample_rate: 44100\n").audio
        #expect(device.source == .device && device.device == "hw:1,0" && device.channels == 2 && device.sampleRate == 44100)
        let file = try Self.parse("  source: file\n  file: /srv/music.wav\n  bitrate_kbps: 96\n").audio
        #expect(file.source == .file && file.file == "/srv/music.wav" && file.bitrateKbps == 96)
    }

    /// Each problem names its key path and line; all are reported at once.
    @Test(arguments: [
        ("  source: mp3\n", "audio.source", "mp3"),
        ("  source: device\n", "audio.device", "is required when audio.source is device"),
        ("  source: file\n", "audio.file", "is required when audio.source is file"),
        ("  file: /srv/a.wav\n", "audio.file", "is set but audio.source is silent"),
        ("  source: none\n  device: default\n", "audio.device", "is set but audio.source is none"),
        ("  sample_rate: 44000\n", "audio.sample_rate", "is not an AAC sample rate"),
        ("  channels: 3\n", "audio.channels", "out of range"),
        ("  bitrate_kbps: 8\n", "audio.bitrate_kbps", "out of range"),
        ("  device: \"hw 1\"\n  source: device\n", "audio.device", "is not an ALSA device name"),
        ("  sourc: silent\n", "audio.sourc", "source"),
    ])
    func reportsBadValues(yaml: String, keyPath: String, fragment: String) {
        let error = #expect(throws: ConfigError.self) { try Self.parse(yaml) }
        let problem = error?.problems.first { $0.keyPath == keyPath }
        #expect(problem != nil, "no problem for \(keyPath) in \(String(describing: error))")
        #expect(problem?.description.contains(fragment) == true, "\(String(describing: problem))")
        #expect(problem?.line != nil)
    }

    @Test func overridesSwitchTheSourceAndDropTheOldOnesKeys() throws {
        var config = try Self.parse("  source: file\n  file: /srv/music.wav\n")
        try config.apply(overrides: ["audio.source": "device", "audio.device": "default"], origin: "command line")
        #expect(config.audio.source == .device && config.audio.device == "default" && config.audio.file == nil)
        try config.apply(overrides: ["audio.source": "none"], origin: "command line")
        #expect(config.audio.source == .none && config.audio.device == nil)
    }
}
