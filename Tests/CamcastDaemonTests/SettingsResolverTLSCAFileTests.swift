import Config
import Testing

@testable import CamcastDaemon

/// `--tls-ca-file PATH` sets `network.tls_ca_file` through the config's own rules and reaches the
/// RTMP publisher's options (rtmps:// outputs trust it besides the system store).
@Suite struct SettingsResolverTLSCAFileTests {
    static func flags(caFile: String?) -> CommandLineSettings {
        var flags = CommandLineSettings(outputs: ["rtmps://ingest.example/live/key"])
        flags.tlsCAFile = caFile
        return flags
    }

    @Test func theSystemStoreAloneUnlessSaidOtherwise() throws {
        let run = try SettingsResolver.resolve(Self.flags(caFile: nil), environment: [:])
        #expect(run.settings.rtmp.tlsCAFile == nil)
    }

    @Test func theFlagReachesThePublisher() throws {
        let run = try SettingsResolver.resolve(Self.flags(caFile: "/etc/camcast/ca.pem"), environment: [:])
        #expect(run.settings.rtmp.tlsCAFile == "/etc/camcast/ca.pem")
    }

    @Test func theEnvironmentSetsItToo() throws {
        let run = try SettingsResolver.resolve(Self.flags(caFile: nil), environment: ["CAMCAST_NETWORK_TLS_CA_FILE": "/srv/ca.pem"])
        #expect(run.settings.rtmp.tlsCAFile == "/srv/ca.pem")
    }

    @Test func aRelativePathIsTheConfigsProblem() throws {
        let error = try #require(throws: ConfigError.self) {
            try SettingsResolver.resolve(Self.flags(caFile: "ca.pem"), environment: [:])
        }
        #expect(error.problems.map(\.description) == [
            "command line: network.tls_ca_file: `ca.pem` is not an absolute path (expected a PEM file such as /etc/camcast/ca.pem)"
        ])
    }
}
