import FLV
import Foundation
import TestSupport
import Testing

/// `camcast run --codec h265` end to end through the real binary, judged by FFmpeg 8 (PyAV),
/// which reads Enhanced RTMP: an .flv file, an Annex-B .h265 file and a live RTMP publish of a
/// 150-frame clip, the rate and a live rate change of a real-time run, and what nginx-rtmp 1.2.2
/// does with the stream.
@Suite(.serialized, .enabled(if: PyAV.interopTestsEnabled, Comment(rawValue: PyAV.interopSkipReason)))
struct H265StreamTests {
    static let streamKey = "hEvC-kEy-2718"

    /// 150 frames (5 s) of ffmpeg's testsrc2 at 640x360, 30 fps, as YUV4MPEG2: played with
    /// `--pace fast`, every frame reaches the encoder whatever the machine's load (a real-time
    /// source skips frames it was too late for).
    static func clip(in dir: URL) throws -> URL {
        let clip = dir.appendingPathComponent("testsrc2.y4m")
        let made = try FFmpegTools.result(
            "ffmpeg",
            ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-frames:v", "150",
             "-pix_fmt", "yuv420p", "-y", clip.path])
        guard made.status == 0 else { throw HarnessError("ffmpeg could not make the clip: \(made.stderr)") }
        return clip
    }

    /// A config that plays `clip` once, as H.265 at `kbps`, into `outputs`.
    static func config(in dir: URL, clip: URL, kbps: Int, outputs: [String]) throws -> URL {
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
            source:
              type: file
              file: "\(clip.path)"
              loop: false
            encoder:
              codec: h265
              preset: ultrafast
              bitrate_kbps: \(kbps)
              keyframe_interval_seconds: 2
            outputs:
            \(outputs.map { $0.hasPrefix("rtmp://") ? "  - url: \($0)" : "  - path: \($0)" }.joined(separator: "\n"))
            """.write(to: config, atomically: true, encoding: .utf8)
        return config
    }

    /// What every H.265 output of the 150-frame clip must show.
    static func expectWhole(_ video: PyAV.DecodedVideo, _ name: String) {
        #expect(video.errors.isEmpty, "\(name): FFmpeg 8 errors \(video.errors)")
        #expect(video.codec == "hevc", "\(name): \(video.codec)")
        #expect(video.width == 640 && video.height == 360, "\(name): \(video.width)x\(video.height)")
        #expect(video.frames.count == 150, "\(name): \(video.frames.count) frames")
        #expect(video.frames.first?.isKeyframe == true, "\(name): the first frame must be a keyframe")
        // Keyframes every 2 s at 30 fps; all of them IDR pictures FFmpeg flags as I.
        let keyframes = video.frames.indices.filter { video.frames[$0].isKeyframe }
        #expect(keyframes == [0, 60, 120], "\(name): keyframes at \(keyframes)")
        #expect(keyframes.allSatisfy { video.frames[$0].pictureType == "I" })
    }

    @Test func aClipToFLVAndToH265DecodesWholeInFFmpeg8() throws {
        let dir = try Project.scratchDirectory("h265-files")
        let flv = dir.appendingPathComponent("cam.flv")
        let annexB = dir.appendingPathComponent("cam.h265")
        let config = try Self.config(in: dir, clip: try Self.clip(in: dir), kbps: 1000, outputs: [flv.path, annexB.path])
        let result = try ProcessRunner.run(Project.camcastBinary.path, ["run", "--config", config.path, "--pace", "fast"], timeout: 120)
        #expect(result.status == 0, "camcast failed: \(result.stderr)")
        #expect(result.stderr.contains("codec=h265"), "\(result.stderr)")

        let fromFLV = try PyAV.decodeVideo(flv.path)
        Self.expectWhole(fromFLV, "cam.flv")
        // FLV timestamps: 0, 33, 67 … (the clip's frames, 1000/30 ms apart).
        let gaps = zip(fromFLV.packets, fromFLV.packets.dropFirst()).compactMap { pair in
            pair.1.dts.flatMap { next in pair.0.dts.map { next - $0 } }
        }
        #expect(fromFLV.packets.first?.dts == 0)
        #expect(gaps.allSatisfy { (33...34).contains($0) }, "frames ~33 ms apart: \(Set(gaps).sorted())")
        Self.expectWhole(try PyAV.decodeVideo(annexB.path), "cam.h265")
        // Debian's ffmpeg 5.1 reads the raw file too (only E-RTMP FLV is beyond it).
        let probe = try FFmpegTools.result("ffprobe", ["-v", "error", "-count_frames", "-show_entries",
            "stream=codec_name,profile,nb_read_frames", "-of", "csv=p=0", annexB.path])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "hevc,Main,150", "\(probe.stdout) \(probe.stderr)")
    }

    /// Live: the clip published over RTMP to FFmpeg 8 as a one-shot server (PyAV with `listen`),
    /// a server that reads Enhanced RTMP, unlike nginx-rtmp 1.2.2 (below). All 150 frames arrive
    /// and decode, the first a keyframe. Played fast, so a loaded machine skips no frame; the
    /// send queue holds the whole 5 s clip while the connection comes up, so none is dropped.
    @Test func aClipPublishedOverRTMPDecodesWholeInFFmpeg8() throws {
        let dir = try Project.scratchDirectory("h265-rtmp")
        let port = try freeLoopbackPort()
        let url = "rtmp://127.0.0.1:\(port)/live/\(Self.streamKey)"
        let server = try PyAV.startDecodingVideo(url, options: ["listen": "1"])
        // FFmpeg listens once it has imported and opened; a probe connection would use up the
        // one-shot server, so wait for the socket to show up in the kernel's table instead.
        #expect(Self.waitUntilListening(port: port, timeout: 20), "PyAV never listened on \(port)")
        let config = try Self.config(in: dir, clip: try Self.clip(in: dir), kbps: 1000, outputs: [url])
        try (String(contentsOf: config, encoding: .utf8) + "\nqueue:\n  max_seconds: 10\n")
            .write(to: config, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(
            Project.camcastBinary.path, ["run", "--config", config.path, "--pace", "fast"], timeout: 120)
        #expect(result.status == 0, "camcast failed: \(result.stderr)")
        #expect(!result.stderr.contains(Self.streamKey), "the stream key leaked into the log")
        #expect(result.stderr.contains("dropped=0"), "\(result.stderr)")
        let served = try server.wait(timeout: 60)
        let video = try PyAV.parseDecodedVideo(served.stdout)
        #expect(video.endOfStream != nil, "the server's input should end with the publisher leaving")
        Self.expectWhole(video, "rtmp://…/live/****")
    }

    /// Whether something listens on 127.0.0.1:`port` (IPv4, state LISTEN in /proc/net/tcp).
    static func waitUntilListening(port: UInt16, timeout: Double) -> Bool {
        let wanted = String(format: ":%04X", port)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let table = (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? ""
            let listening = table.split(separator: "\n").contains { line in
                let fields = line.split(separator: " ")
                return fields.count > 3 && fields[1].hasSuffix(wanted) && fields[3] == "0A"
            }
            if listening { return true }
            usleep(100_000)
        }
        return false
    }

    /// Real time, as a camera: 10 s at 1000 kbit/s, then a SIGHUP with 400 kbit/s, into an .flv
    /// file, measured from the packets FFmpeg 8 demuxes.
    @Test func bitrateHoldsOverTenSecondsAndALiveChangeTakesEffect() throws {
        let dir = try Project.scratchDirectory("h265-bitrate")
        let flv = dir.appendingPathComponent("cam.flv")
        let config = dir.appendingPathComponent("camcast.yaml")
        func writeConfig(kbps: Int) throws {
            try """
                source:
                  size: 640x360
                  fps: 30
                encoder:
                  codec: h265
                  preset: ultrafast
                  bitrate_kbps: \(kbps)
                  keyframe_interval_seconds: 2
                outputs:
                  - path: \(flv.path)
                """.write(to: config, atomically: true, encoding: .utf8)
        }
        try writeConfig(kbps: 1000)
        let process = try Daemon.start(["run", "--config", config.path])
        #expect(Daemon.waitForLog(process, "info ready"), "\(process.stderrSoFar)")
        usleep(11_000_000)
        try writeConfig(kbps: 400)
        process.signal(SIGHUP)
        #expect(Daemon.waitForLog(process, "reload applied: bitrate 1000 → 400 kbit/s", timeout: 5), "\(process.stderrSoFar)")
        usleep(5_000_000)
        process.signal(SIGTERM)
        let result = try process.wait(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")

        let video = try PyAV.decodeVideo(flv.path)
        #expect(video.errors.isEmpty, "FFmpeg 8 errors \(video.errors)")
        #expect(video.codec == "hevc")
        let packets = video.packets.compactMap { packet in packet.dts.map { (ms: $0, bits: packet.size * 8, key: packet.isKeyframe) } }
        // Every picture the daemon encoded is in the file (how many the source skipped under load is
        // the machine's speed; the rates below are over media time and do not depend on it).
        let encoded = try #require(CamcastLog.stopCount("frames", in: result.stderr), "no stop summary\n\(result.stderr)")
        try #require(packets.count == encoded && encoded > 0, "\(packets.count) packets, \(encoded) frames encoded")
        // x265's rate control has no variable-frame-rate mode: it budgets each picture bitrate/fps,
        // so a source that skips slots under load sends less per second of media (720 kbit/s for
        // 1000 with 28 % skipped, a loaded CI machine). The rate it holds is per picture: bits per
        // picture at the configured 30 fps, whatever the machine's speed.
        func kbps(_ range: Range<Int>) -> Double {
            let pictures = packets.filter { range.contains($0.ms) }
            return Double(pictures.reduce(0) { $0 + $1.bits }) * 30 / Double(max(pictures.count, 1)) / 1000
        }
        let first = kbps(0..<10_000)
        #expect(abs(first - 1000) <= 150, "the first 10 s: \(first) kbit/s for 1000")
        // Keyframes every 2 s of capture time before the change, by the session's schedule.
        let before = packets.filter { $0.ms < 10_000 }
        #expect(before.count { $0.key } == 5, "keyframes at \(before.filter(\.key).map(\.ms)) ms")
        let schedule = KeyframeScheduleCheck.problems(times: before.map(\.ms), keys: before.map(\.key), dueAfterMilliseconds: 1983)
        #expect(schedule.isEmpty, "\(schedule)")
        let last = try #require(packets.last).ms
        let after = kbps((last - 3_500)..<(last - 500))
        #expect(abs(after - 400) <= 100, "after the change: \(after) kbit/s for 400")
    }

    /// SIGHUP with `codec: h265` in place of h264: a new encoder session takes over without a
    /// restart or a lost frame; the .flv output ends the AVC sequence and starts an 'hvc1' one at
    /// the new session's first IDR, timestamps running on.
    @Test func aReloadSwitchesTheCodecLive() throws {
        let dir = try Project.scratchDirectory("h265-switch")
        let flv = dir.appendingPathComponent("cam.flv")
        let config = dir.appendingPathComponent("camcast.yaml")
        func writeConfig(_ codec: String) throws {
            try """
                source:
                  size: 320x180
                  fps: 30
                encoder:
                  codec: \(codec)
                  preset: ultrafast
                  bitrate_kbps: 500
                outputs:
                  - path: \(flv.path)
                """.write(to: config, atomically: true, encoding: .utf8)
        }
        try writeConfig("h264")
        let process = try Daemon.start(["run", "--config", config.path])
        #expect(Daemon.waitForLog(process, "info ready"), "\(process.stderrSoFar)")
        usleep(3_000_000)
        try writeConfig("h265")
        process.signal(SIGHUP)
        #expect(Daemon.waitForLog(process, "reload applied: codec h264 → h265", timeout: 5), "\(process.stderrSoFar)")
        usleep(3_000_000)
        process.signal(SIGTERM)
        let result = try process.wait(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("needs a restart"), "\(result.stderr)")

        let video = try FLVReader.readFile(atPath: flv.path).tags.filter { $0.type == .video }
        let bodies = try video.map { try $0.videoData() }
        let avc = bodies.indices.filter { if case .legacy = bodies[$0] { true } else { false } }
        let hevc = bodies.indices.filter { if case .enhanced = bodies[$0] { true } else { false } }
        try #require(!avc.isEmpty && !hevc.isEmpty, "AVC tags \(avc.count), hvc1 tags \(hevc.count)")
        // All AVC first, then all hvc1: one switch, at one place.
        #expect(avc.last! < hevc.first!)
        #expect(bodies[avc.last!].isEndOfSequence, "the AVC sequence is ended")
        #expect(bodies[hevc.first!].isSequenceHeader && bodies[hevc.first! + 1].isKeyframe)
        #expect(bodies[hevc.last!].isEndOfSequence)
        let codedTimes = video.indices.filter { bodies[$0].isCodedFrame }.map { video[$0].timestamp }
        #expect(zip(codedTimes, codedTimes.dropFirst()).allSatisfy { $0 < $1 }, "timestamps run on across the switch")
        // Every picture the two sessions encoded is in the file, each half holding coded pictures:
        // not "more than 60 each", which a loaded machine (x265 opening slowly, slots skipped)
        // missed in CI with 3 s a half (issue 38).
        let encoded = try #require(CamcastLog.stopCount("frames", in: result.stderr), "no stop summary\n\(result.stderr)")
        let coded = (avc + hevc).filter { bodies[$0].isCodedFrame }
        #expect(coded.count == encoded, "\(coded.count) coded pictures in the file, \(encoded) encoded")
        #expect(avc.contains { bodies[$0].isCodedFrame } && hevc.contains { bodies[$0].isCodedFrame }, "AVC tags \(avc.count), hvc1 tags \(hevc.count)")
    }

    /// What nginx-rtmp 1.2.2 (Debian 12) does with Enhanced RTMP: it takes the publish, and a
    /// player joined before it and the `record all` recording get the metadata and the audio
    /// but not one video tag (with H.264 the same player recipe gets the stream, see
    /// StreamToServerTests). The README says so; this fails when a server upgrade changes it.
    @Test(.enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
    func nginxRTMP122TakesThePublishButPassesOnNoHEVCVideo() throws {
        let server = try RTMPServer()
        let dir = try Project.scratchDirectory("h265-nginx")
        let played = dir.appendingPathComponent("played.flv")
        let config = try Self.config(
            in: dir, clip: try Self.clip(in: dir), kbps: 1000,
            outputs: [server.url(app: "rec", name: Self.streamKey), server.url(app: "live", name: "watched")])
        // rtmpdump leaves on a signal only when its pending read returns: `-m 10` (its receive
        // timeout, 30 s by default) ends that wait 10 s after the last byte, well past the player's
        // wait for the publisher here (1.5 s and camcast's start), and its file is complete.
        let rtmpdump = try FFmpegTools.path(of: "rtmpdump")
        let player = try ProcessRunner.start(
            "/usr/bin/timeout",
            ["40", rtmpdump, "-q", "--live", "-m", "10", "-r", server.url(app: "live", name: "watched"), "-o", played.path])
        usleep(1_500_000)
        let result = try ProcessRunner.run(Project.camcastBinary.path, ["run", "--config", config.path], timeout: 120)
        #expect(result.status == 0, "camcast failed: \(result.stderr)")
        #expect(!result.stderr.contains(Self.streamKey), "the stream key leaked into the log")
        // Both publishes went through once, without a reconnect: the server does not refuse it.
        #expect(result.stderr.components(separatedBy: "RTMP publishing").count - 1 == 2, "\(result.stderr)")
        #expect(result.stderr.contains("reconnects=0"))
        // nginx keeps an idle player waiting for the next publisher: the stream is over, end it.
        usleep(1_000_000)
        player.signal(SIGTERM)
        _ = try player.wait(timeout: 30)
        try server.stop()
        // The tags that arrived (a player stopped by a signal may end inside a tag: no finish()).
        func tags(_ path: URL) throws -> [FLVTag] {
            var reader = FLVReader()
            return try reader.feed(try Data(contentsOf: path))
        }
        let recording = try tags(server.recording(Self.streamKey))
        let relayed = try tags(played)
        // 5 s of 1000 kbit/s video would be ~150 video tags, ~600 KB: none arrives. The default
        // silent AAC track does: nginx relays and records the audio of the same publish.
        #expect(recording.filter { $0.type == .video }.isEmpty, "recording: \(recording.count) tags")
        #expect(relayed.filter { $0.type == .video }.isEmpty, "relayed to a player: \(relayed.count) tags")
        #expect(recording.contains { $0.type == .audio }, "the recording holds the audio track")
        #expect(try PyAV.decodeVideo(played.path).frames.isEmpty)
    }
}
