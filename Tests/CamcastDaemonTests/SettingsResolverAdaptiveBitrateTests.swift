import Config
import Outputs
import RTMPAddress
import SRT
import Testing

@testable import CamcastDaemon

/// `encoder.adaptive_bitrate` and `encoder.min_bitrate_kbps`, from the file or the flags
/// `--no-adaptive-bitrate` and `--min-bitrate`, through the config's own rules.
@Suite struct SettingsResolverAdaptiveBitrateTests {
    static func flags(bitrate: Int? = nil, minBitrate: Int? = nil, off: Bool = false) -> CommandLineSettings {
        var flags = CommandLineSettings(bitrateKbps: bitrate, outputs: ["rtmp://127.0.0.1/live/key"])
        flags.minBitrateKbps = minBitrate
        flags.noAdaptiveBitrate = off
        return flags
    }

    @Test func onByDefaultWithAQuarterOfTheBitrateAsTheFloor() throws {
        #expect(try SettingsResolver.resolve(Self.flags(), environment: [:]).settings.adaptiveBitrateFloorKbps == 625)
        #expect(try SettingsResolver.resolve(Self.flags(bitrate: 1200), environment: [:]).settings.adaptiveBitrateFloorKbps == 300)
        // Never below 50 (the lowest bitrate), never above the bitrate.
        #expect(try SettingsResolver.resolve(Self.flags(bitrate: 120), environment: [:]).settings.adaptiveBitrateFloorKbps == 50)
        #expect(try SettingsResolver.resolve(Self.flags(bitrate: 50), environment: [:]).settings.adaptiveBitrateFloorKbps == 50)
    }

    /// An SRT output bounds the encoder's bursts to a quarter of its latency (the shortest of
    /// several, a group's legs included); RTMP leaves the rate limit alone to size them.
    @Test func srtOutputsBoundTheEncodersBurstsByTheirLatency() throws {
        let rtmp = try SettingsResolver.resolve(Self.flags(), environment: [:])
        #expect(rtmp.settings.encoder.burstLimitSeconds == nil)
        var flags = Self.flags()
        flags.outputs = ["srt://127.0.0.1:9000", "rtmp://127.0.0.1/live/key"]
        let srt = try SettingsResolver.resolve(flags, environment: [:])
        #expect(srt.settings.encoder.burstLimitSeconds == 0.125)
        #expect(SettingsResolver.burstLimitSeconds(for: [
            .srt(try SRTURL(parsing: "srt://a:1"), options: SRTCallerOptions(latencyMilliseconds: 2000)),
            .group(legs: [.srt(try SRTURL(parsing: "srt://b:1"), options: SRTCallerOptions(latencyMilliseconds: 800))], policy: OutputGroupPolicy(
                mode: .failover, failoverAfterSeconds: 2, returnAfterSeconds: 60)),
        ]) == 0.2)
    }

    @Test func theFlagsSetTheFloorOrTurnItOff() throws {
        let floor = try SettingsResolver.resolve(Self.flags(bitrate: 1200, minBitrate: 400), environment: [:])
        #expect(floor.settings.adaptiveBitrateFloorKbps == 400)
        let off = try SettingsResolver.resolve(Self.flags(off: true), environment: [:])
        #expect(off.settings.adaptiveBitrateFloorKbps == nil)
        let environment = try SettingsResolver.resolve(
            Self.flags(), environment: ["CAMCAST_ENCODER_ADAPTIVE_BITRATE": "false"])
        #expect(environment.settings.adaptiveBitrateFloorKbps == nil)
    }

    @Test func aFloorAboveTheBitrateIsAnErrorNamingTheKey() throws {
        let error = try #require(throws: ConfigError.self) {
            try SettingsResolver.resolve(Self.flags(bitrate: 1000, minBitrate: 1500), environment: [:])
        }
        #expect(error.problems.map(\.description) == [
            "command line: encoder.min_bitrate_kbps: 1500 is above encoder.bitrate_kbps (1000); the floor must not exceed the bitrate"
        ])
        #expect(ConfigError.exitCode == 78)
    }

    @Test(arguments: [0, -5, 49, 100_001])
    func aFloorOutOfRangeIsAnError(_ kbps: Int) throws {
        let error = try #require(throws: ConfigError.self) {
            try SettingsResolver.resolve(Self.flags(minBitrate: kbps), environment: [:])
        }
        #expect(error.problems.map(\.keyPath) == ["encoder.min_bitrate_kbps"])
    }

    @Test func theFileSaysTheSame() throws {
        let file = "encoder:\n  bitrate_kbps: 800\n  min_bitrate_kbps: 900\noutputs:\n  - url: rtmp://127.0.0.1/live/key\n"
        let error = try #require(throws: ConfigError.self) { try CamcastConfig.parse(yaml: file, fileName: "c.yaml") }
        #expect(error.problems.map(\.description) == [
            "c.yaml:3:21: encoder.min_bitrate_kbps: 900 is above encoder.bitrate_kbps (800); the floor must not exceed the bitrate"
        ])
        let off = try CamcastConfig.parse(
            yaml: "encoder:\n  adaptive_bitrate: false\noutputs:\n  - url: rtmp://127.0.0.1/live/key\n", fileName: "c.yaml")
        #expect(off.encoder.adaptiveBitrate == false)
    }
}
