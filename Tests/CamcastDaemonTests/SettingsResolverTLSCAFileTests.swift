import Config
import Testing

@testable import CamcastDaemon

/// `--tls-ca-file PATH` sets `network.tls_ca_file` through the config's own rules and reaches the
/// RTMP publisher's options (rtmps:// outputs trust it besides the system store).
@Suite struct SettingsResolverTLSCAFileTests {
    static let bundle = "/etc/ssl/certs/ca-certificates.crt"

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
        // A file that loads: the check at start reads it (Debian's bundle is a PEM file of CAs).
        let run = try SettingsResolver.resolve(Self.flags(caFile: Self.bundle), environment: [:])
        #expect(run.settings.rtmp.tlsCAFile == Self.bundle)
    }

    @Test func theEnvironmentSetsItToo() throws {
        let run = try SettingsResolver.resolve(Self.flags(caFile: nil), environment: ["CAMCAST_NETWORK_TLS_CA_FILE": Self.bundle])
        #expect(run.settings.rtmp.tlsCAFile == Self.bundle)
    }

    /// A CA file that cannot be loaded is refused before anything starts (run and check-config
    /// alike, exit 78), in the words a connection would have failed with.
    @Test func anUnreadableCAFileIsAConfigProblem() throws {
        let error = try #require(throws: ConfigError.self) {
            try SettingsResolver.resolve(Self.flags(caFile: "/nonexistent/camcast-ca.pem"), environment: [:])
        }
        #expect(error.problems.map(\.keyPath) == ["network.tls_ca_file"])
        #expect(error.problems.first?.message.hasPrefix("cannot read the TLS CA file /nonexistent/camcast-ca.pem: ") == true)
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
