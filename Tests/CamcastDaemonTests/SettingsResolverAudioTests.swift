import AudioPath
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

    /// A 16-bit mono 48 kHz PCM WAV file of `samples` zeros: what the WAV source opens at start.
    static func wav(samples: Int, formatTag: UInt16 = 1, bits: UInt16 = 16) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        let bytesPerSample = Int(bits) / 8
        let data = samples * bytesPerSample
        return Array("RIFF".utf8) + le32(36 + data) + Array("WAVEfmt ".utf8) + le32(16)
            + le16(Int(formatTag)) + le16(1) + le32(48000) + le32(48000 * bytesPerSample) + le16(bytesPerSample) + le16(Int(bits))
            + Array("data".utf8) + le32(data) + [UInt8](repeating: 0, count: data)
    }

    @Test func silentByDefault48kMono128() throws {
        let audio = try Self.resolve(Self.flags(audio: nil)).settings.audio
        #expect(audio == AudioSettings(source: .silent, format: AudioFormat(sampleRate: 48000, channels: 1), bitrateKbps: 128))
    }

    @Test func theFlagNamesEachSource() throws {
        #expect(try Self.resolve(Self.flags(audio: "none")).settings.audio == nil)
        #expect(try Self.resolve(Self.flags(audio: "alsa:hw:1,0")).settings.audio?.source == .device("hw:1,0"))
        let wav = FileManager.default.temporaryDirectory.appendingPathComponent("camcast-\(UUID().uuidString.prefix(8)).wav")
        try Data(Self.wav(samples: 480)).write(to: wav)
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
