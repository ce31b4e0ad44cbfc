import Capture
import Foundation
import Logging
import Media
import TestSupport
import Testing
import V4L2

/// Capture from the kernel's vivid driver. Runs only inside the vivid VM (the host-side
/// `VividVMTests` boots it and runs this suite there); elsewhere every test is skipped visibly.
@Suite(.serialized, .enabled(if: VividEnvironment.insideVM, "needs the vivid VM: run through VividVMTests"))
struct VividCaptureTests {
    static let size = VideoSize(width: 320, height: 180)
    static let rate = FrameRate(numerator: 30)
    static let interval = Double(rate.frameIntervalNanoseconds)

    static func settings(_ format: PixelFormat?, path: String = VividEnvironment.device) -> V4L2SourceSettings {
        V4L2SourceSettings(devicePath: path, pixelFormat: format, size: size, frameRate: rate)
    }

    /// 90 frames at 320x180@30: kernel timestamps ~33 ms apart and strictly increasing, no driver
    /// drops, no sequence gaps, the layout the format defines.
    ///
    /// Under emulation on a busy host vivid's thread now and then misses a frame (seen once in
    /// CI, right after the VM booted): then the first 90 continuous frames within 20 s count, and
    /// every gap before them must be one the source counted as a driver drop.
    @Test(arguments: [PixelFormat.yuyv, .nv12, .i420])
    func captures90ContinuousFrames(format: PixelFormat) async throws {
        let logs = RecordingLogHandler.Store()
        let source = try V4L2CaptureSource(settings: Self.settings(format), logger: RecordingLogHandler.logger(logs))
        let recorder = FrameRecorder()
        try source.start { [source] frame in recorder.record(frame, state: source.state) }
        let negotiated = try #require(source.format)
        #expect(negotiated == V4L2CaptureFormat(devicePixelFormat: format, pixelFormat: format, size: Self.size, frameRate: Self.rate))
        let enough = try await recorder.wait(seconds: 20) { Self.continuousRun(of: 90, in: recorder.all) != nil }
        source.stop()
        let all = recorder.all
        try #require(enough, "no 90 continuous frames in 20 s: \(all.count) frames, \(source.driverDroppedFrames) driver drops")
        let start = try #require(Self.continuousRun(of: 90, in: all))
        let frames = Array(all[start..<start + 90])
        let gaps = zip(all, all.dropFirst()).map { Int($1.sequence - $0.sequence) - 1 }.reduce(0, +)
        #expect(gaps == source.driverDroppedFrames, "every sequence gap is a counted driver drop")
        // Where the first run of 90 starts is how long vivid's thread under TCG kept missing frames
        // after the boot: the VM's speed, not camcast's (a bound of 30, then 60, failed on slower
        // machines). That it came within 20 s at all is the `enough` above.
        print("vivid: the first continuous run of 90 starts at frame \(start)")

        let expectedLayout: (planes: [VideoPlane], byteCount: Int) = switch format {
        case .yuyv: ([VideoPlane(offset: 0, bytesPerRow: 640)], 115_200)
        case .nv12: ([VideoPlane(offset: 0, bytesPerRow: 320), VideoPlane(offset: 57_600, bytesPerRow: 320)], 86_400)
        default: VideoFrame.i420Planes(width: 320, height: 180)
        }
        for frame in frames {
            #expect(frame.pixelFormat == format && frame.width == 320 && frame.height == 180)
            #expect(frame.planes == expectedLayout.planes && frame.byteCount == expectedLayout.byteCount)
            #expect(frame.state == .live)
        }
        var offBeat: [Double] = []
        for (previous, next) in zip(frames, frames.dropFirst()) {
            #expect(next.sequence == previous.sequence + 1, "sequence \(previous.sequence) then \(next.sequence)")
            let delta = Double(next.timestamp.nanoseconds(since: previous.timestamp))
            #expect(delta > 0, "timestamps must increase")
            if abs(delta - Self.interval) >= 0.6 * Self.interval { offBeat.append(delta / 1e6) }
        }
        // vivid stamps when its kernel thread fills the buffer; under emulation (TCG) on a busy
        // host that thread runs late now and then, then early for the next frame to keep the rate:
        // how often is the host's load (a count of 2 failed on a loaded machine). What says the
        // stamps are the driver's schedule, not our dequeue times, is that they keep its rate
        // exactly on average, which no late dequeue does: the mean interval below.
        print("vivid: \(offBeat.count) of 89 intervals off by more than 60 %: \(offBeat) ms")
        let span = Double(frames.last!.timestamp.nanoseconds(since: frames.first!.timestamp))
        #expect(abs(span / 89 - Self.interval) < 0.03 * Self.interval, "mean interval \(span / 89 / 1e6) ms")
        // The kernel stamps on CLOCK_MONOTONIC: the last frame is within moments of now, not on
        // another clock (CLOCK_REALTIME would be decades away). vivid derives its stamps from its
        // frame schedule, so under emulation one can lie a little ahead of `now`: allow either sign.
        let age = MonotonicTime.now().nanoseconds(since: frames.last!.timestamp)
        #expect(abs(age) < 30_000_000_000, "last frame \(Double(age) / 1e9) s before now")
        #expect(source.errorBuffers == 0 && source.skippedFrames == 0)
        #expect(source.placeholderFrames == 0 && source.reopenCount == 0)
        // vivid's moving test pattern: pictures differ.
        #expect(Set(frames.map(\.checksum)).count > 10)
        #expect(source.state == .stopped)
        // No copy: every frame went to `deliver` straight from the driver's buffer.
        #expect(frames.allSatisfy { $0.isBorrowed })
        #expect(source.borrowedFrames == source.deliveredFrames && source.deliveredFrames >= 90)
        #expect(source.copiedFrames == 0)
    }

    /// Where the first `count` frames with consecutive sequence numbers begin in `frames`.
    static func continuousRun(of count: Int, in frames: [FrameRecorder.Entry]) -> Int? {
        var start = 0
        for index in frames.indices.dropFirst() where frames[index].sequence != frames[index - 1].sequence + 1 {
            if index - start >= count { return start }
            start = index
        }
        return frames.count - start >= count ? start : nil
    }

    /// The fewest buffers the settings allow: the capture loop keeps the last delivered one
    /// dequeued, so the driver fills the other alone, and frames still flow, uncopied.
    @Test func twoBuffersStreamWithTheLastFrameHeldBack() async throws {
        let logs = RecordingLogHandler.Store()
        var settings = Self.settings(.i420)
        settings.bufferCount = 2
        let source = try V4L2CaptureSource(settings: settings, logger: RecordingLogHandler.logger(logs))
        let recorder = FrameRecorder()
        try source.start { [source] frame in recorder.record(frame, state: source.state) }
        let enough = try await recorder.wait(seconds: 20) { recorder.count >= 30 }
        source.stop()
        try #require(enough, "only \(recorder.count) frames in 20 s")
        let started = try #require(logs.all.first { $0.message == "capture started" })
        #expect(started.metadata["buffers"] == "2", "\(started.metadata)")
        let frames = recorder.all
        #expect(frames.allSatisfy { $0.isBorrowed && $0.state == .live })
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $1.sequence > $0.sequence && $1.timestamp > $0.timestamp })
        #expect(Set(frames.map(\.checksum)).count > 10)
        #expect(source.borrowedFrames == frames.count && source.copiedFrames == 0 && source.placeholderFrames == 0)
    }

    /// The harness loads vivid single-planar or multi-planar; capture must work with either API.
    @Test func nodeSpeaksTheExpectedBufferAPI() {
        let info = V4L2DeviceLister.info(path: VividEnvironment.device)
        #expect(info.canCapture)
        #expect(info.capabilities.contains("video-capture-mplane") == VividEnvironment.multiPlanar, "\(info.capabilities)")
        #expect(info.capabilities.contains("video-capture") == !VividEnvironment.multiPlanar, "\(info.capabilities)")
    }

    /// Auto takes NV12 (x264's native input) from vivid, which offers YUYV first.
    @Test func autoPicksNV12() throws {
        let source = try V4L2CaptureSource(settings: Self.settings(nil), logger: Logger(label: "test"))
        try source.start { _ in }
        defer { source.stop() }
        #expect(source.format?.pixelFormat == .nv12)
    }

    @Test func anUnofferedFormatFailsAtStartNamingWhatIsOffered() throws {
        let source = try V4L2CaptureSource(settings: Self.settings(.mjpeg), logger: Logger(label: "test"))
        let error = try #require(throws: CaptureError.self) { try source.start { _ in } }
        guard case .formatNotSupported(let path, let requested, let offered) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(path == VividEnvironment.device && requested == "MJPG")
        #expect(offered.prefix(3) == ["YUYV", "UYVY", "YVYU"])
    }

    /// The listing agrees with v4l2-ctl (which reads the same ioctls with code nobody here wrote):
    /// the same formats in the same order, and per format the same sizes and frame rates.
    @Test func listingAgreesWithV4L2Ctl() throws {
        // A udev-style stable link (the VM has no udev), to check the lister finds it.
        try FileManager.default.createDirectory(atPath: "/dev/v4l/by-id", withIntermediateDirectories: true)
        let link = "/dev/v4l/by-id/platform-vivid-video-index0"
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../../video0")

        let devices = V4L2DeviceLister.list()
        let vivid = try #require(devices.first { $0.path == VividEnvironment.device })
        #expect(vivid.driver == "vivid" && vivid.busInfo == "platform:vivid-000" && vivid.canCapture)
        #expect(vivid.stablePaths == [link])
        #expect(vivid.capabilities.contains("streaming"))

        let reference = Self.parseListFormatsExt(try VividEnvironment.v4l2ctl(["-d", VividEnvironment.device, "--list-formats-ext"]))
        try #require(reference.count > 10, "v4l2-ctl listed \(reference.count) formats")
        #expect(vivid.formats.map(\.fourCC) == reference.map(\.fourCC))
        for (ours, theirs) in zip(vivid.formats, reference) {
            #expect(ours.sizes.map { "\($0.width)x\($0.height)" } == theirs.sizes.map(\.size), "sizes of \(ours.fourCC)")
            for (size, theirSize) in zip(ours.sizes, theirs.sizes) {
                let rates = size.frameIntervals.map { String(format: "%.3f", Double($0.denominator) / Double($0.numerator)) }
                #expect(rates == theirSize.rates, "rates of \(ours.fourCC) \(theirSize.size)")
            }
        }
        // And the human-readable and JSON forms carry it.
        let text = V4L2DeviceLister.describe(devices)
        #expect(text.contains("/dev/video0: vivid (driver vivid, bus platform:vivid-000)"))
        #expect(text.contains("  stable path: \(link)"))
        #expect(text.contains("      320x180  @ 1, 2, 4, 5, 10, 12.5, 15, 25, 30, 40, 50, 60 fps"))
        let decoded = try JSONDecoder().decode([V4L2DeviceInfo].self, from: Data(try V4L2DeviceLister.json(devices).utf8))
        #expect(decoded == devices)

        // Capture through the stable link works like through the node.
        let source = try V4L2CaptureSource(settings: Self.settings(.yuyv, path: link), logger: Logger(label: "test"))
        let recorder = FrameRecorder()
        try source.start { frame in recorder.record(frame, state: .live) }
        defer { source.stop() }
        #expect(source.format?.size == Self.size)
    }

    /// `v4l2-ctl --list-formats-ext` output: "[0]: 'YUYV' (…)", "Size: Discrete 320x180",
    /// "Interval: Discrete 0.033s (30.000 fps)".
    static func parseListFormatsExt(_ text: String) -> [(fourCC: String, sizes: [(size: String, rates: [String])])] {
        var formats: [(fourCC: String, sizes: [(size: String, rates: [String])])] = []
        for rawLine in text.split(separator: "\n") {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("["), let open = line.firstIndex(of: "'") {
                let fourCC = line[line.index(after: open)...].prefix { $0 != "'" }
                formats.append((String(fourCC), []))
            } else if line.hasPrefix("Size: Discrete ") {
                formats[formats.count - 1].sizes.append((String(line.dropFirst("Size: Discrete ".count)), []))
            } else if line.hasPrefix("Interval: Discrete "), let open = line.firstIndex(of: "(") {
                let rate = line[line.index(after: open)...].prefix { $0 != " " }
                let last = formats.count - 1
                formats[last].sizes[formats[last].sizes.count - 1].rates.append(String(rate))
            }
        }
        return formats
    }
}
