import Capture
import Config
import Foundation
import Media
import Testing

@testable import CamcastDaemon

/// `source.type: file` and `--pace` through the resolver, as `camcast run` resolves them.
@Suite struct SettingsResolverFileTests {
    /// A 48x32 clip at 25 fps with one frame, in a fresh file.
    static func clip() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("camcast-resolver-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("clip.y4m").path
        let bytes = Array("YUV4MPEG2 W48 H32 F25:1 C420jpeg\nFRAME\n".utf8) + [UInt8](repeating: 16, count: 48 * 32 * 3 / 2)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func resolve(_ flags: CommandLineSettings) throws(ConfigError) -> RunSettings {
        try SettingsResolver.resolve(flags, environment: [:]).settings
    }

    @Test func theClipsHeaderSetsSizeAndRate() throws {
        let path = try Self.clip()
        let settings = try Self.resolve(CommandLineSettings(source: path, outputs: ["/tmp/out.flv"], pace: "fast"))
        #expect(settings.source == .file(Y4MSourceSettings(path: path, loop: true, pace: .fast)))
        #expect(settings.encoder.size == VideoSize(width: 48, height: 32))
        #expect(settings.encoder.frameRate == FrameRate(numerator: 25))
    }

    @Test func paceDefaultsToRealtime() throws {
        let path = try Self.clip()
        let settings = try Self.resolve(CommandLineSettings(source: path, outputs: ["/tmp/out.flv"]))
        #expect(settings.source == .file(Y4MSourceSettings(path: path, loop: true, pace: .realtime)))
    }

    @Test func standardInputKeepsTheGivenSize() throws {
        let settings = try Self.resolve(CommandLineSettings(source: "-", size: "640x360", outputs: ["/tmp/out.flv"]))
        #expect(settings.source == .file(Y4MSourceSettings(path: "-", loop: true, pace: .realtime)))
        #expect(settings.encoder.size == VideoSize(width: 640, height: 360))
    }

    @Test func anUnknownPaceIsAProblem() throws {
        let path = try Self.clip()
        let error = try #require(throws: ConfigError.self) {
            try Self.resolve(CommandLineSettings(source: path, outputs: ["/tmp/out.flv"], pace: "warp"))
        }
        #expect(error.problems.map(\.keyPath) == ["--pace"])
        #expect(error.problems.first?.message == "'warp' is not a pace (expected realtime or fast)")
    }

    @Test func paceWithoutAFileSourceIsAProblem() throws {
        let error = try #require(throws: ConfigError.self) {
            try Self.resolve(CommandLineSettings(source: "testpattern", outputs: ["/tmp/out.flv"], pace: "fast"))
        }
        #expect(error.problems.map(\.message) == ["only applies to a file source"])
    }

    @Test func aClipThatCannotBePlayedIsAProblemNamingIt() throws {
        let error = try #require(throws: ConfigError.self) {
            try Self.resolve(CommandLineSettings(source: "/nonexistent/clip.y4m", outputs: ["/tmp/out.flv"]))
        }
        #expect(error.problems.map(\.keyPath) == ["source.file"])
        #expect(error.problems.first?.message.hasPrefix("/nonexistent/clip.y4m: ") == true)
    }
}
