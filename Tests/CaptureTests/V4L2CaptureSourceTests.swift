@testable import Capture
import Glibc
import Logging
import Media
import Testing
import TestSupport

/// What the source does without a camera; capture itself is tested against vivid in
/// CaptureIntegrationTests.
@Suite struct V4L2CaptureSourceTests {
    static func settings(_ path: String) -> V4L2SourceSettings {
        V4L2SourceSettings(devicePath: path, size: VideoSize(width: 320, height: 180), frameRate: FrameRate(numerator: 30))
    }

    /// Frames the source delivered, for the tests to look at.
    final class Delivered: Sendable {
        let frames = SharedLock<[VideoFrame]>([])
        func add(_ frame: VideoFrame) { frames.withLock { $0.append(frame.owned()) } }
        var count: Int { frames.withLock { $0.count } }
    }

    /// Waits up to `seconds` for `condition`, polling every 20 ms.
    static func wait(seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = MonotonicTime.now().adding(nanoseconds: UInt64(seconds * 1e9))
        while MonotonicTime.now() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// A camera absent at start is one lost before its first frame (issue 25): the source starts,
    /// sends the slate at the configured size in NV12 on the frame clock, and says what it waits for.
    @Test func aMissingNodeStartsOnTheSlateAndWaitsForTheCamera() throws {
        let source = try V4L2CaptureSource(settings: Self.settings("/dev/video-camcast-none"), logger: Logger(label: "test"))
        let delivered = Delivered()
        try source.start { delivered.add($0) }
        defer { source.stop() }
        #expect(source.state == .placeholder(.gone("no video device at /dev/video-camcast-none")))
        #expect(source.placeholderReason == "waiting for camera /dev/video-camcast-none")
        #expect(source.format == nil)
        #expect(Self.wait(seconds: 10) { delivered.count >= 10 })
        let frames = delivered.frames.withLock { $0 }
        let first = try #require(frames.first)
        #expect(first.width == 320 && first.height == 180 && first.pixelFormat == .nv12)
        #expect(first.copiedBytes().first == OfflineSlate.yuv.y)
        // On the frame clock: stamps advance by about 1/30 s, sequence numbers count up.
        for (earlier, later) in zip(frames, frames.dropFirst()) {
            #expect(later.timestamp > earlier.timestamp)
            #expect(later.sequence > earlier.sequence)
        }
        source.stop()
        #expect(source.state == .stopped)
    }

    /// The device is tried again every `reopenIntervalSeconds`: a link that appears later is
    /// opened (here it leads to /dev/null, so the state turns from "gone" to "failing", which
    /// shows the attempt happened) while the slate keeps going out.
    @Test func aPathThatAppearsLaterIsTriedAgain() throws {
        let dir = "/tmp/camcast-late-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        #expect(mkdir(dir, 0o700) == 0)
        defer { _ = unlink(dir + "/video"); _ = rmdir(dir) }
        var settings = Self.settings(dir + "/video")
        settings.reopenIntervalSeconds = 0.2
        let source = try V4L2CaptureSource(settings: settings, logger: Logger(label: "test"))
        let delivered = Delivered()
        try source.start { delivered.add($0) }
        defer { source.stop() }
        #expect(source.placeholderReason == "waiting for camera \(dir)/video")
        #expect(symlink("/dev/null", dir + "/video") == 0)
        #expect(Self.wait(seconds: 10) { source.placeholderReason == "camera failing" }, "\(source.state)")
        let before = delivered.count
        #expect(Self.wait(seconds: 10) { delivered.count > before + 5 })
    }

    /// A node that answers no V4L2 ioctl never will: refused at start, not waited for.
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
