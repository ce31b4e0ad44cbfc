import Config
import Testing

@testable import CamcastDaemon

/// A problem the encoder's own checks find (after the config's rules) is reported once under its
/// key, as the config's problems are: "encoder.backend: avcodec:… is not allowed (…)".
@Suite struct SettingsResolverEncoderProblemTests {
    @Test func anUnknownLibavcodecEncoderNamesItsKeyOnce() throws {
        var flags = CommandLineSettings(outputs: ["rtmp://127.0.0.1/live/key"])
        flags.encoderBackend = "avcodec:nonesuch"
        let error = try #require(throws: ConfigError.self) { try SettingsResolver.resolve(flags, environment: [:]) }
        let lines = error.problems.map(\.description)
        #expect(lines.count == 1, "\(lines)")
        let line = try #require(lines.first)
        #expect(line.hasPrefix("settings: encoder.backend: avcodec:nonesuch is not allowed (libavcodec has no encoder of that name"), "\(line)")
        #expect(!line.contains("encoder.backend: encoder.backend"), "\(line)")
    }
}
