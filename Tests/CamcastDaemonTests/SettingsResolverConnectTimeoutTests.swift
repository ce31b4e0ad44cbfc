import Config
import Testing

@testable import CamcastDaemon

/// `--connect-timeout S` sets `network.connect_timeout_seconds` through the config's own rules and
/// reaches the RTMP publisher's options.
@Suite struct SettingsResolverConnectTimeoutTests {
    static func flags(connectTimeout: Double?) -> CommandLineSettings {
        var flags = CommandLineSettings(outputs: ["rtmp://127.0.0.1/live/key"])
        flags.connectTimeoutSeconds = connectTimeout
        return flags
    }

    @Test func tenSecondsUnlessSaidOtherwise() throws {
        let run = try SettingsResolver.resolve(Self.flags(connectTimeout: nil), environment: [:])
        #expect(run.settings.rtmp.connectTimeoutSeconds == 10)
    }

    /// The publisher counts whole seconds: a fraction is rounded up, never down to less than asked.
    @Test(arguments: [(2.0, 2), (2.5, 3), (120.0, 120)])
    func theFlagSetsThePublishersTimeout(_ seconds: Double, _ expected: Int) throws {
        let run = try SettingsResolver.resolve(Self.flags(connectTimeout: seconds), environment: [:])
        #expect(run.settings.rtmp.connectTimeoutSeconds == expected)
    }

    @Test func theFlagWinsOverTheEnvironment() throws {
        let run = try SettingsResolver.resolve(
            Self.flags(connectTimeout: 4), environment: ["CAMCAST_NETWORK_CONNECT_TIMEOUT_SECONDS": "30"])
        #expect(run.settings.rtmp.connectTimeoutSeconds == 4)
    }

    @Test(arguments: [0.5, 121])
    func outOfRangeIsTheConfigsProblem(_ seconds: Double) throws {
        let error = try #require(throws: ConfigError.self) {
            try SettingsResolver.resolve(Self.flags(connectTimeout: seconds), environment: [:])
        }
        #expect(error.problems.map(\.description) == [
            "command line: network.connect_timeout_seconds: \(seconds) is out of range (1…120)"
        ])
    }
}
