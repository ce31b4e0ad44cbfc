import Foundation
import TestSupport
import Testing

/// End to end with a real V4L2 driver: camcast inside the vivid VM captures /dev/video0 and
/// publishes to nginx-rtmp on the host; what nginx recorded is checked with ffprobe and ffmpeg.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct VividStreamTests {
    static let streamKey = "vivid-SeCrEt-0815"

    @Test(.timeLimit(.minutes(8)))
    func vividCameraArrivesWholeAtTheHostServer() throws {
        guard let (run, recording) = try Self.stream(seconds: 10) else { return }
        #expect(run.line("capture started")?.contains("driver=vivid") == true, "not capturing vivid:\n\(run.log)")
        try Self.checkRecording(recording, of: run, seconds: 10)
    }

    /// The camera is unplugged (vivid's `disconnect`) mid-stream: the host keeps receiving frames
    /// (placeholders) on the same connection, and live ones once the device is back. YUYV also
    /// takes the conversion path into the encoder.
    @Test(.timeLimit(.minutes(8)))
    func unpluggedCameraKeepsTheStreamAliveWithoutReconnecting() throws {
        guard let (run, recording) = try Self.stream(
            seconds: 12, environment: ["CAMCAST_SOURCE_PIXEL_FORMAT": "yuyv"],
            event: .init(afterStreamingSeconds: 3, command: "v4l2-ctl -d /dev/video0 -c disconnect=1"))
        else { return }
        #expect(run.line("capture started")?.contains("YUYV 320x180") == true, "not capturing YUYV:\n\(run.log)")
        let back = try Self.checkOneOutageOnOneConnection(run, camera: "gone", reason: "No such device")
        #expect((CamcastLog.value("placeholders", in: back).flatMap(Int.init) ?? 0) >= 10, "\(back)")
        // Slots skipped: a reopen under emulation takes longer than a frame interval.
        try Self.checkRecording(recording, of: run, seconds: 12, maximumSkipped: 36)
    }

    /// The camera goes silent for 5 s (vivid drops every buffer: a stuck sensor, a capture card
    /// that stops sending): placeholders bridge the silence, it is reported once as the camera
    /// failing (also on the status line), and live frames return on the same connection however
    /// many reopen attempts it took.
    @Test(.timeLimit(.minutes(8)))
    func silentCameraIsBridgedWithPlaceholders() throws {
        let control = "v4l2-ctl -d /dev/video0 -c percentage_of_dropped_buffers"
        guard let (run, recording) = try Self.stream(
            seconds: 14, event: .init(afterStreamingSeconds: 3, command: "\(control)=100; sleep 5; \(control)=0"))
        else { return }
        try Self.checkOneOutageOnOneConnection(run, camera: "failing", reason: "no frame for")
        #expect(run.lines("status [camera failing]").count >= 2, "\(run.log)")
        // Silence shorter than half a second is left alone (jitter); after that, placeholders. Its
        // first half second is skipped, not filled (15 slots), and reopens under emulation are slow.
        try Self.checkRecording(recording, of: run, seconds: 14, longestHoleMilliseconds: 650, maximumSkipped: 42)
    }

    /// A capture card loses its signal for 4 s (vivid's S-Video input, `standard_signal_mode` "No
    /// Signal"): the card goes on sending frames, noise, but the input reports "no signal", so
    /// those are dropped and placeholders stand in on the same connection until the signal is back.
    @Test(.timeLimit(.minutes(8)))
    func lostSignalIsReplacedByPlaceholders() throws {
        let control = "v4l2-ctl -d /dev/video0 -c standard_signal_mode"
        guard let (run, recording) = try Self.stream(
            seconds: 12, fps: 25, event: .init(afterStreamingSeconds: 3, command: "\(control)=1; sleep 4; \(control)=0"),
            vividOptions: VividVM.sVideoOptions)
        else { return }
        #expect(run.line("capture started")?.contains("320x180@25") == true, "\(run.log)")
        let back = try Self.checkOneOutageOnOneConnection(run, camera: "failing", reason: "no signal")
        let offline = try #require(CamcastLog.value("offlineSeconds", in: back).flatMap(Double.init))
        #expect((3...5.5).contains(offline), "offline \(offline) s for a 4 s loss of signal")
        #expect(run.lines("status [camera failing]").count >= 2, "\(run.log)")
        try Self.checkRecording(recording, of: run, seconds: 12, fps: 25, maximumSkipped: 30)
    }

    /// camcast in the VM streams 320x180 from vivid to a fresh nginx-rtmp on the host for
    /// `seconds`, the status line every second. Returns its log and the host's recording, or nil
    /// (an issue recorded) when the VM could not run.
    static func stream(
        seconds: Int, fps: Int = 30, environment: [String: String] = [:], event: VividGuest.Event? = nil,
        vividOptions: String = VividVM.webcamOptions
    ) throws -> (VividGuest.Finished, URL)? {
        let server = try RTMPServer()
        guard let run = try VividGuest.runCamcast(
            ["run", "--source", "/dev/video0", "--size", "320x180", "--fps", "\(fps)", "--duration", "\(seconds)",
             "--output", server.guestURL(app: "rec", name: streamKey)],
            environment: environment.merging(["CAMCAST_STATUS_INTERVAL_SECONDS": "1"]) { $1 }, event: event,
            vividOptions: vividOptions)
        else { return nil }
        try server.stop()  // nginx closes the recording
        #expect(run.status == 0, "camcast failed in the VM\n\(run.transcript)\n\(run.log)")
        #expect(!run.log.contains(streamKey), "the stream key leaked into camcast's log")
        #expect(!run.transcript.contains(streamKey), "the stream key leaked into the VM's output")
        return (run, server.recording(streamKey))
    }

    /// One outage: reported once ("camera lost", `camera`, a reason containing `reason`), over
    /// once ("camera back", returned), and one RTMP connection throughout.
    @discardableResult
    static func checkOneOutageOnOneConnection(_ run: VividGuest.Finished, camera: String, reason: String) throws -> String {
        let lost = try #require(run.line("camera lost"), "the outage was not reported\n\(run.log)")
        #expect(lost.contains("camera=\(camera)") && lost.contains(reason), "\(lost)")
        #expect(run.lines("camera lost").count == 1, "\(run.log)")
        #expect(run.lines("camera back").count == 1, "\(run.log)")
        #expect(run.lines("RTMP publishing").count == 1, "\(run.log)")
        #expect(run.count("reconnects", in: "stopped") == 0)
        return try #require(run.line("camera back"), "live capture did not resume\n\(run.log)")
    }

    /// The recording holds exactly the frames camcast encoded; those plus what the driver and
    /// the source dropped fill the run's duration at `fps`; timestamps rise strictly with no
    /// hole; it decodes without one error.
    static func checkRecording(
        _ file: URL, of run: VividGuest.Finished, seconds: Int, fps: Int = 30, longestHoleMilliseconds: Int = 250,
        maximumSkipped: Int = 2
    ) throws {
        let encoded = try #require(run.count("frames", in: "stopped"), "no stop summary\n\(run.log)")
        let skipped = try #require(run.count("skipped", in: "stopped"))
        let driverDropped = try #require(run.count("driver_dropped", in: "stopped"))
        let slots = seconds * fps
        print("vivid -> host: \(encoded) frames encoded, \(skipped) skipped, \(driverDropped) dropped by the driver, \(slots) slots")
        #expect(abs(encoded + skipped + driverDropped - slots) <= 2,
                "\(encoded) encoded + \(skipped) skipped + \(driverDropped) dropped by the driver vs \(slots) frame slots")
        // vivid under emulation on a busy host drops a few; more than 10 % would be our fault.
        #expect(driverDropped <= slots / 10, "the driver dropped \(driverDropped) of \(slots) frames")
        #expect(skipped <= maximumSkipped, "\(skipped) frame slots skipped")

        let video = try ProbedVideo.probe(file)
        #expect(video.codec == "h264" && video.width == 320 && video.height == 180,
                "\(video.codec) \(video.width)x\(video.height)")
        #expect(video.decodedFrames == encoded, "\(video.decodedFrames) frames decoded, \(encoded) sent")
        #expect(video.packets.count == encoded)
        #expect(video.packets.first?.isKeyframe == true, "the recording must start with a keyframe")
        let times = video.packets.map(\.dtsMilliseconds)
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(gaps.allSatisfy { $0 > 0 }, "timestamps must increase strictly")
        #expect((gaps.max() ?? 0) < longestHoleMilliseconds, "a \(gaps.max() ?? 0) ms hole in the stream")
        let span = (times.last ?? 0) - (times.first ?? 0)
        #expect(abs(span - seconds * 1000) < 300, "the recording spans \(span) ms")
        // Keyframes every 2 s of capture time: the first frame 2 s or more after one is the next.
        var lastKeyframe = times.first ?? 0
        for packet in video.packets {
            if packet.isKeyframe {
                lastKeyframe = packet.dtsMilliseconds
            } else {
                #expect(packet.dtsMilliseconds - lastKeyframe < 2000, "no keyframe for 2 s at \(packet.dtsMilliseconds) ms")
            }
        }
        #expect(try ProbedVideo.decodeErrors(file) == "")
    }
}
