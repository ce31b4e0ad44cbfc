import Config
import Foundation
import Media
import Testing

@testable import CamcastDaemon

/// `audio:` and `--audio` through the resolver, as `camcast run` resolves them.
@Suite struct SettingsResolverAudioTests {
    static func resolve(_ flags: CommandLineSettings) throws(ConfigError) -> ResolvedRun {
        try SettingsResolver.resolve(flags, environment: [:])
    }

    static func flags(audio: String?, source: String? = nil, pace: String? = nil) -> CommandLineSettings {
        var flags = CommandLineSettings(source: source, outputs: ["/tmp/out.flv"], pace: pace)
        flags.audio = audio
        return flags
    }

    @Test func silentByDefault48kMono128() throws {
        let audio = try Self.resolve(Self.flags(audio: nil)).settings.audio
        #expect(audio == AudioSettings(source: .silent, format: AudioFormat(sampleRate: 48000, channels: 1), bitrateKbps: 128))
    }

    @Test func theFlagNamesEachSource() throws {
        #expect(try Self.resolve(Self.flags(audio: "none")).settings.audio == nil)
        #expect(try Self.resolve(Self.flags(audio: "alsa:hw:1,0")).settings.audio?.source == .device("hw:1,0"))
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("camcast-\(UUID().uuidString.prefix(8)).wav")
        try Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8).write(to: wav)
        #expect(try Self.resolve(Self.flags(audio: wav.path)).settings.audio?.source == .file(wav.path))
    }

    /// The sound is paced in real time: a clip played flat out goes without it, and says so.
    @Test func fastPaceGoesWithoutSound() throws {
        let clip = try SettingsResolverFileTests.clip()
        let run = try Self.resolve(Self.flags(audio: nil, source: clip, pace: "fast"))
        #expect(run.settings.audio == nil)
        #expect(run.warnings.contains { $0.contains("no audio track with --pace fast") })
        #expect(try Self.resolve(Self.flags(audio: nil, source: clip, pace: "realtime")).settings.audio != nil)
    }
}
