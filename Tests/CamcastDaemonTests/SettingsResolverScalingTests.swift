import Config
import Encoder
import Foundation
import Media
import Testing

@testable import CamcastDaemon

/// `encoder.scaling` reaches the encoder's settings from the file and from the environment.
///
/// Only here, not through the binary: the test pattern renders at the encode size and a clip sets
/// the encode size to its own, so no source but a camera delivers frames the encoder must scale.
@Suite struct SettingsResolverScalingTests {
    /// A config file saying `scaling: <name>`, in a fresh directory.
    static func configFile(scaling: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("camcast-scaling-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("camcast.yaml").path
        try "encoder:\n  scaling: \(scaling)\noutputs:\n  - path: /tmp/out.flv\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func fitUnlessTheConfigSaysOtherwise() throws {
        let run = try SettingsResolver.resolve(CommandLineSettings(outputs: ["/tmp/out.flv"]), environment: [:])
        #expect(run.settings.encoder.scaling == .fit)
    }

    @Test(arguments: [("fit", ScalingMode.fit), ("fill", .fill), ("stretch", .stretch)])
    func theFileChoosesTheEncodersScaling(_ name: String, _ mode: ScalingMode) throws {
        let flags = CommandLineSettings(configPath: try Self.configFile(scaling: name))
        let run = try SettingsResolver.resolve(flags, environment: [:])
        #expect(run.settings.encoder.scaling == mode)
    }

    @Test func theEnvironmentWinsOverTheFile() throws {
        let flags = CommandLineSettings(configPath: try Self.configFile(scaling: "fill"))
        let run = try SettingsResolver.resolve(flags, environment: ["CAMCAST_ENCODER_SCALING": "stretch"])
        #expect(run.settings.encoder.scaling == .stretch)
    }

    @Test func aBadValueFromTheEnvironmentIsAConfigError() throws {
        let error = try #require(throws: ConfigError.self) {
            try SettingsResolver.resolve(CommandLineSettings(outputs: ["/tmp/out.flv"]), environment: ["CAMCAST_ENCODER_SCALING": "crop"])
        }
        #expect(error.problems.map(\.keyPath) == ["encoder.scaling"])
        #expect(ConfigError.exitCode == 78)
    }
}
