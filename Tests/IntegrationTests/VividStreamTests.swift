import Foundation
import TestSupport
import Testing

/// End to end with a real V4L2 driver: camcast inside the vivid VM captures /dev/video0 and
/// publishes to nginx-rtmp on the host; what nginx recorded is checked with ffprobe and ffmpeg.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct VividStreamTests {
    static let streamKey = "vivid-SeCrEt-0815"
    /// An outage run ends 3 s after the camera is back (`Event.stopSecondsAfterReturn`), however
    /// long the guest took to cause the outage; this much media is the limit for one whose camera
    /// never returns.
    static let outageRunLimit = 40

    /// The camera is unplugged (vivid's `disconnect`) mid-stream: the host keeps receiving frames
    /// (placeholders) on the same connection, and live ones once the device is back. YUYV also
    /// takes the conversion path into the encoder.
    @Test(.timeLimit(.minutes(8)))
    func unpluggedCameraKeepsTheStreamAliveWithoutReconnecting() throws {
        guard let (run, recording) = try Self.stream(
            seconds: Self.outageRunLimit, environment: ["CAMCAST_SOURCE_PIXEL_FORMAT": "yuyv"],
            event: .init(afterStreamingSeconds: 3, command: "v4l2-ctl -d /dev/video0 -c disconnect=1", stopSecondsAfterReturn: 3))
        else { return }
        #expect(run.line("capture started")?.contains("YUYV 320x180") == true, "not capturing YUYV:\n\(run.log)")
        let back = try Self.checkOneOutageOnOneConnection(run, camera: "gone", reason: "No such device")
        #expect((CamcastLog.value("placeholders", in: back).flatMap(Int.init) ?? 0) >= 10, "\(back)")
        // However long the VM took to notice the loss or to reopen the device, the placeholders
        // fill every slot from the last live frame on: nothing skipped, no hole of camcast's.
        try Self.checkRecording(recording, of: run)
    }

    /// The camera goes silent for 5 s (vivid drops every buffer: a stuck sensor, a capture card
    /// that stops sending): placeholders bridge the silence, it is reported once as the camera
    /// failing (also on the status line), and live frames return on the same connection however
    /// many reopen attempts it took.
    @Test(.timeLimit(.minutes(8)))
    func silentCameraIsBridgedWithPlaceholders() throws {
        let control = "v4l2-ctl -d /dev/video0 -c percentage_of_dropped_buffers"
        guard let (run, recording) = try Self.stream(
            seconds: Self.outageRunLimit,
            event: .init(afterStreamingSeconds: 3, command: "\(control)=100; sleep 5; \(control)=0", stopSecondsAfterReturn: 3))
        else { return }
        // The plain stream's checks too (a run of its own cost a VM boot, ~30 CPU-s of a CI bound
        // by CPU): vivid's default NV12 captured, and before and after the silence every frame
        // at the host, whole (checkRecording).
        #expect(run.line("capture started")?.contains("driver=vivid") == true, "not capturing vivid:\n\(run.log)")
        try Self.checkOneOutageOnOneConnection(run, camera: "failing", reason: "no frame for")
        #expect(run.lines("status [camera failing]").count >= 2, "\(run.log)")
        // Silence shorter than half a second is left alone (jitter); after that, placeholders,
        // from the first slot the camera missed: the half second waited is filled too.
        try Self.checkRecording(recording, of: run)
    }

    /// A capture card loses its signal for 4 s (vivid's S-Video input, `standard_signal_mode` "No
    /// Signal"): the card goes on sending frames, noise, but the input reports "no signal", so
    /// those are dropped and placeholders stand in on the same connection until the signal is back.
    @Test(.timeLimit(.minutes(8)))
    func lostSignalIsReplacedByPlaceholders() throws {
        let control = "v4l2-ctl -d /dev/video0 -c standard_signal_mode"
        // The guest's own clock around each control change: how long the loss really lasted in the
        // VM, however slowly v4l2-ctl starts there.
        let stamp = { (name: String) in "cat /proc/uptime > \(VividGuest.directoryToken)/\(name)" }
        let event = "\(stamp("t0")); \(control)=1; \(stamp("t1")); sleep 4; \(stamp("t2")); \(control)=0; \(stamp("t3"))"
        guard let (run, recording) = try Self.stream(
            seconds: Self.outageRunLimit, fps: 25, event: .init(afterStreamingSeconds: 3, command: event, stopSecondsAfterReturn: 3),
            vividOptions: VividVM.sVideoOptions)
        else { return }
        #expect(run.line("capture started")?.contains("320x180@25") == true, "\(run.log)")
        let back = try Self.checkOneOutageOnOneConnection(run, camera: "failing", reason: "no signal")
        let offline = try #require(CamcastLog.value("offlineSeconds", in: back).flatMap(Double.init))
        // camcast asks the input for its signal once a second (V4L2CaptureLoop+Signal), so it
        // notices the loss within a check interval and a frame after the control took effect, and
        // the return likewise: offline lies between the loss's shortest and longest possible
        // length, each widened by one check and one frame.
        let uptime = { (name: String) throws -> Double in
            let text = try String(contentsOf: run.directory.appendingPathComponent(name), encoding: .utf8)
            return try #require(text.split(separator: " ").first.flatMap { Double($0) }, "\(name): \(text)")
        }
        let (t0, t1, t2, t3) = (try uptime("t0"), try uptime("t1"), try uptime("t2"), try uptime("t3"))
        let slack = 1.0 + 1.0 / 25
        #expect((t2 - t1 - slack...t3 - t0 + slack).contains(offline),
                "offline \(offline) s for a loss of signal from \(t0)-\(t1) to \(t2)-\(t3) s (guest uptime)")
        #expect(run.lines("status [camera failing]").count >= 2, "\(run.log)")
        try Self.checkRecording(recording, of: run, fps: 25)
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

    /// The recording holds exactly the frames camcast encoded; those plus what the driver, the
    /// source and the encoder's full queue dropped fill the run's duration at `fps`; camcast
    /// skipped no slot it could fill (placeholders fill every slot from the last live frame on,
    /// however late the loss was noticed, up to a second back); every hole in the time line is one
    /// the driver's own drops (or camcast's counted ones) explain; it decodes without one error.
    ///
    /// No bound here depends on how fast this machine or its emulated VM is. The driver drops
    /// frames when the guest is starved (x264 starting up under TCG, a v4l2-ctl process launched
    /// beside camcast, a loaded host): how many is the VM's speed, counted from the driver's
    /// sequence numbers, and each bound on holes is derived from that count. A guest starved
    /// further still (one host core for the VM, nginx and the tests: the driver dropped half the
    /// frames) falls more than a second behind: the slots it skipped are the ones its log says
    /// were past the backfill limit, and pictures it sent later than the interleaver waits for were
    /// moved up onto the sound by design, which its latency figures show; the time line of such a
    /// run is the machine's speed, so only counts, order and decoding are checked there.
    static func checkRecording(_ file: URL, of run: VividGuest.Finished, fps: Int = 30) throws {
        let encoded = try #require(run.count("frames", in: "stopped"), "no stop summary\n\(run.log)")
        let skipped = try #require(run.count("skipped", in: "stopped"))
        // Slots without a picture: those skipped, and live pictures dropped at the encoder stage's
        // full queue (never a placeholder: EncoderStage.whenFull).
        let unencoded = try #require(CamcastLog.unencodedSlots(in: run.log))
        let driverDropped = try #require(run.count("driver_dropped", in: "stopped"))
        // The run's media time, first frame to last (an outage run ends after the camera's return,
        // whenever that was): its frame slots are that over the interval, plus the first.
        let mediaMilliseconds = try #require(run.count("media_ms", in: "stopped"))
        let slots = Int((Double(mediaMilliseconds * fps) / 1000).rounded()) + 1
        print("vivid -> host: \(encoded) frames encoded, \(skipped) skipped, \(unencoded - skipped) dropped at the encoder, \(driverDropped) dropped by the driver, \(slots) slots")
        // Skipped slots are camcast's own holes: a timestamp that did not advance (2, the first and
        // last slot's rounding), or slots further back than the backfill limit, noticed in the log
        // with how far behind the loop was, which must be past that limit (1 s; whole ms, rounded
        // down). The notices' slots add up to every such skip (paced, the rest logged at the stop).
        let skips = run.lines("frame slots skipped")
        let loggedSkips = skips.compactMap { CamcastLog.value("slots", in: $0).flatMap(Int.init) }.reduce(0, +)
        let lags = skips.compactMap { CamcastLog.value("behind_ms", in: $0).flatMap(Int.init) }
        #expect(lags.count == skips.count && lags.allSatisfy { $0 >= 1000 }, "slots skipped while less than the backfill limit behind: \(skips)")
        #expect(skipped <= loggedSkips + 2, "\(skipped) frame slots skipped, \(loggedSkips) of them past the backfill limit")
        // Placeholders stamped into the past (the slots the loss took to notice) were waited for
        // by the interleaver, not moved up onto the sound already sent: with a window shorter
        // than the backfill, ten of them came 21 ms apart behind a 212 ms hole. Only a picture
        // more than the window (1.25 s, less the presentation delay) behind the sound is moved
        // up, and then the run's capture-to-socket latency shows it.
        let movedUp = try #require(run.count("audio_late", in: "stopped"))
        let latencyMax = run.line("latency").flatMap { CamcastLog.value("latency_max_ms", in: $0) }.flatMap(Double.init) ?? 0
        #expect(movedUp == 0 || latencyMax >= 1000, "\(movedUp) packets moved up in the interleaver with pictures at most \(latencyMax) ms late\n\(run.log)")

        let video = try ProbedVideo.probe(file)
        #expect(video.codec == "h264" && video.width == 320 && video.height == 180,
                "\(video.codec) \(video.width)x\(video.height)")
        #expect(video.decodedFrames == encoded, "\(video.decodedFrames) frames decoded, \(encoded) sent")
        #expect(video.packets.count == encoded)
        #expect(video.packets.first?.isKeyframe == true, "the recording must start with a keyframe")
        let times = video.packets.map(\.dtsMilliseconds)
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        let interval = 1000 / fps
        print("vivid -> host: gaps over 1.5 intervals (ms): \(gaps.enumerated().filter { $0.element * 2 > interval * 3 }.map { "\(times[$0.offset])+\($0.element)" })")
        #expect(gaps.allSatisfy { $0 > 0 }, "timestamps must increase strictly")
        // Every slot of the run encoded, skipped, dropped at the encoder or by the driver. The driver's drops are
        // counted from its sequence numbers up to the frame that ended the run, so a run of drops
        // across the end counts slots past it: as many as the longest run of drops in the stream
        // (its longest gap), and 2 for the first and last slot's rounding.
        let longestDropRun = max(0, ((gaps.max() ?? interval) + interval / 2) / interval - 1)
        #expect(abs(encoded + unencoded + driverDropped - slots) <= 2 + longestDropRun,
                "\(encoded) encoded + \(unencoded) skipped or dropped at the encoder + \(driverDropped) dropped by the driver vs \(slots) frame slots (longest drop run \(longestDropRun))")
        #expect(try ProbedVideo.decodeErrors(file) == "")
        guard movedUp == 0 else {
            print("vivid -> host: \(movedUp) packets moved up (pictures up to \(latencyMax) ms late): the time line is this machine's speed, not checked")
            return
        }
        // A hole longer than every slot the driver dropped (and camcast skipped or dropped at the
        // encoder) together, plus the slot itself and half a slot of timestamp jitter, is not the
        // driver's: it is ours.
        let explained = (driverDropped + unencoded + 1) * interval + interval / 2
        #expect((gaps.max() ?? 0) <= explained, "a \(gaps.max() ?? 0) ms hole in the stream; \(driverDropped) dropped by the driver explain \(explained) ms")
        // The recording spans the run, less what drops at its ends could take off it.
        let span = (times.last ?? 0) - (times.first ?? 0)
        #expect(abs(span - mediaMilliseconds) <= explained, "the recording spans \(span) ms of the run's \(mediaMilliseconds) ms")
        // Keyframes every 2 s of capture time: the first frame 2 s or more after one is the next.
        var lastKeyframe = times.first ?? 0
        for packet in video.packets {
            if packet.isKeyframe {
                lastKeyframe = packet.dtsMilliseconds
            } else {
                #expect(packet.dtsMilliseconds - lastKeyframe < 2000, "no keyframe for 2 s at \(packet.dtsMilliseconds) ms")
            }
        }
    }
}
