import Capture
import Glibc
import Logging
import Media
import Testing

/// What the source does without a camera; capture itself is tested against vivid in
/// CaptureIntegrationTests.
@Suite struct V4L2CaptureSourceTests {
    static func settings(_ path: String) -> V4L2SourceSettings {
        V4L2SourceSettings(devicePath: path, size: VideoSize(width: 320, height: 180), frameRate: FrameRate(numerator: 30))
    }

    @Test func startFailsWithDeviceNotFoundForAMissingNode() throws {
        let source = try V4L2CaptureSource(settings: Self.settings("/dev/video-camcast-none"), logger: Logger(label: "test"))
        #expect(throws: CaptureError.deviceNotFound(path: "/dev/video-camcast-none")) {
            try source.start { _ in }
        }
        #expect(source.state == .stopped)
        #expect(source.format == nil)
        // A failed start leaves the source startable again (and failing the same way).
        #expect(throws: CaptureError.deviceNotFound(path: "/dev/video-camcast-none")) {
            try source.start { _ in }
        }
    }

    @Test func startRejectsANodeThatIsNotV4L2() throws {
        let source = try V4L2CaptureSource(settings: Self.settings("/dev/null"), logger: Logger(label: "test"))
        let error = try #require(throws: CaptureError.self) { try source.start { _ in } }
        #expect(error == .deviceFailed(path: "/dev/null", call: "VIDIOC_QUERYCAP", errno: ENOTTY, message: "Inappropriate ioctl for device"))
    }

    @Test func settingsAreCheckedBeforeAnythingIsOpened() {
        var settings = Self.settings("/dev/video0")
        settings.bufferCount = 1
        #expect(throws: CaptureError.invalidSettings("buffer count 1 must be from 2 to 32")) {
            try V4L2CaptureSource(settings: settings, logger: Logger(label: "test"))
        }
        settings = Self.settings("/dev/video0")
        settings.frameRate = FrameRate(numerator: 30, denominator: 0)
        #expect(throws: CaptureError.invalidFrameRate("30/0")) {
            try V4L2CaptureSource(settings: settings, logger: Logger(label: "test"))
        }
        settings = Self.settings("")
        #expect(throws: CaptureError.invalidSettings("device path is empty")) {
            try V4L2CaptureSource(settings: settings, logger: Logger(label: "test"))
        }
        settings = Self.settings("/dev/video0")
        settings.reopenIntervalSeconds = 0
        #expect(throws: CaptureError.invalidSettings("reopen interval 0.0 s must be positive")) {
            try V4L2CaptureSource(settings: settings, logger: Logger(label: "test"))
        }
    }

    @Test func stopBeforeStartDoesNothing() throws {
        let source = try V4L2CaptureSource(settings: Self.settings("/dev/video0"), logger: Logger(label: "test"))
        source.stop()
        #expect(source.state == .stopped)
        #expect(source.deliveredFrames == 0)
    }
}
