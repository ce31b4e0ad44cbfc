import Capture
import Config
import Foundation
import Testing

@testable import CamcastDaemon

/// A camera path is refused only when it can never be a capture device (issue 25); one that is not
/// there now is waited for, with a warning that says so.
@Suite struct SettingsResolverDeviceTests {
    static func resolve(device: String) throws(ConfigError) -> ResolvedRun {
        var config = CamcastConfig.default
        try config.apply(overrides: ["source.type": "device", "source.device": device], outputs: ["/tmp/out.flv"])
        return try SettingsResolver.runSettings(from: config, durationSeconds: nil, warnings: [])
    }

    @Test(arguments: ["/dev/video-camcast-late", "/dev/v4l/by-id/usb-Camcast_Late_Camera-video-index0"])
    func aMissingDevicePathIsWaitedForWithAWarning(path: String) throws {
        let run = try Self.resolve(device: path)
        #expect(run.settings.source == .device(V4L2SourceSettings(devicePath: path, size: run.settings.encoder.size, frameRate: run.settings.encoder.frameRate)))
        #expect(run.warnings == ["source.device: \(path) does not exist now; camcast will send the slate and wait for it"])
    }

    @Test func aCharacterDeviceIsLeftToTheStart() throws {
        #expect(try Self.resolve(device: "/dev/null").warnings.isEmpty)
    }

    @Test func aDirectoryOrARegularFileIsAConfigError() throws {
        // Under /dev, as the config requires of a device path: /dev/shm holds both kinds.
        let file = URL(fileURLWithPath: "/dev/shm/camcast-not-a-camera-\(UUID().uuidString.prefix(8))")
        try Data([1, 2, 3]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let cases = [
            ("/dev/shm", "/dev/shm is a directory, not a video device"),
            (file.path, "\(file.path) is a regular file, not a video device; to play a clip give it as source.file (a .y4m, .mjpeg or raw frames)"),
        ]
        for (path, message) in cases {
            let error = try #require(throws: ConfigError.self) { try Self.resolve(device: path) }
            #expect(error.problems.map(\.keyPath) == ["source.device"])
            #expect(error.problems.first?.message == message)
        }
    }
}
