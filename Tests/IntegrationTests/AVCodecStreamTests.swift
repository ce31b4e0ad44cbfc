import Foundation
import TestSupport
import Testing

/// `camcast run --encoder avcodec:NAME` end to end (issue 26): a clip encoded by libx264 through
/// libavcodec's send/receive API, with B-frames, published to nginx-rtmp, whose recording ffprobe
/// and `ffmpeg -xerror` read whole; and a hardware encoder with no hardware refused at start.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct AVCodecStreamTests {
    static let streamKey = "aVcOdEc-kEy-2626"

    /// 90 frames (3 s) of testsrc2 at 320x240, 30 fps, played in real time (played fast, the clip
    /// would end before the RTMP connection is up, and a stop discards what never got out).
    static func clip(in dir: URL) throws -> URL {
        let clip = dir.appendingPathComponent("testsrc2.y4m")
        _ = try FFmpegTools.run("ffmpeg", [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-frames:v", "90",
            "-pix_fmt", "yuv420p", "-y", clip.path,
        ])
        return clip
    }

    /// (pts, dts, keyframe) of each video packet of `file`, in file order, in milliseconds.
    static func videoPackets(_ file: URL) throws -> [(pts: Int, dts: Int, key: Bool)] {
        let text = String(decoding: try FFmpegTools.run("ffprobe", [
            "-v", "error", "-select_streams", "v", "-show_entries", "packet=pts,dts,flags", "-of", "csv=p=0", file.path,
        ]), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 3, let pts = Int(fields[0]), let dts = Int(fields[1]) else { return nil }
            return (pts, dts, fields[2].hasPrefix("K"))
        }
    }

    @Test func aClipThroughLibavcodecsLibx264ReachesNginxWholeWithMonotonicDTS() throws {
        let server = try RTMPServer()
        let dir = try Project.scratchDirectory("avcodec-stream")
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
            source:
              type: file
              file: "\(try Self.clip(in: dir).path)"
              loop: false
            encoder:
              realtime: false
              bframes: 2
              bitrate_kbps: 600
              keyframe_interval_seconds: 1
            queue:
              max_seconds: 10
            audio:
              source: none
            outputs:
              - url: \(server.url(app: "rec", name: Self.streamKey))
            """.write(to: config, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(
            Project.camcastBinary.path, ["run", "--config", config.path, "--encoder", "avcodec:libx264"], timeout: 120)
        try server.stop()  // nginx closes the recording
        #expect(result.status == 0, "camcast failed: \(result.stderr)")
        #expect(result.stderr.contains("encoder=avcodec:libx264"), "the log names the encoder: \(result.stderr)")
        #expect(result.stderr.contains("dropped=0") && result.stderr.contains("discarded=0"), "\(result.stderr)")
        // The frames the encoder took, from the stop summary: all 90 unless a loaded machine made
        // the real-time source skip some (then the recording must hold exactly the rest).
        let stopped = try #require(result.stderr.split(separator: "\n").first { $0.contains(" stopped ") && $0.contains(" frames=") })
        let encoded = try #require(stopped.split(separator: " ").first { $0.hasPrefix("frames=") }.flatMap { Int($0.dropFirst(7)) })
        #expect(encoded >= 45, "\(stopped)")
        #expect(!result.stderr.contains(Self.streamKey), "the stream key leaked into the log")

        let recording = server.recording(Self.streamKey)
        let decoded = try FFmpegTools.result("ffmpeg", ["-nostdin", "-v", "error", "-xerror", "-i", recording.path, "-f", "null", "-"])
        #expect(decoded.status == 0 && decoded.stderr.isEmpty, "ffmpeg -xerror: \(decoded.stderr)")
        let counted = try FFmpegTools.run("ffprobe", [
            "-v", "error", "-select_streams", "v", "-count_frames", "-show_entries", "stream=codec_name,nb_read_frames",
            "-of", "csv=p=0", recording.path,
        ])
        #expect(String(decoding: counted, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "h264,\(encoded)")

        let packets = try Self.videoPackets(recording)
        #expect(packets.count == encoded)
        let dts = packets.map(\.dts)
        #expect(zip(dts, dts.dropFirst()).allSatisfy { $0 < $1 }, "dts must increase: \(dts)")
        #expect(packets.contains { $0.pts > $0.dts }, "B-frames: some pictures are shown after they are decoded")
        #expect(packets.allSatisfy { $0.pts >= $0.dts })
        // IDRs once a second of capture time (1 s interval): at 0, 1 and 2 s, the first picture first.
        let firstPTS = packets.map(\.pts).min() ?? 0
        let keyframes = packets.filter(\.key).map { $0.pts - firstPTS }.sorted()
        #expect(packets.first?.key == true)
        #expect(keyframes.count == 3 && keyframes.first == 0, "keyframes at \(keyframes) ms")
        #expect(zip(keyframes, keyframes.dropFirst()).allSatisfy { (967...1100).contains($1 - $0) }, "keyframes at \(keyframes) ms")
    }

    /// SIGHUP with another `encoder.backend`: a new session on the other encoder takes over, as a
    /// codec change does; one that cannot open (no mem2mem device) fails the reload and changes
    /// nothing else either: not the adaptive bitrate (which a mem2mem encoder would have turned
    /// off), not the bitrate, not the outputs of the same file. The file decodes whole across the switch.
    @Test func aReloadSwitchesTheEncoderAndAFailedOneKeepsTheRunningOne() throws {
        let dir = try Project.scratchDirectory("avcodec-reload")
        let config = dir.appendingPathComponent("camcast.yaml")
        let file = dir.appendingPathComponent("out.flv")
        let second = dir.appendingPathComponent("second.flv")
        func writeConfig(_ backend: String, bitrate: Int = 800, extraOutput: URL? = nil) throws {
            try """
                source:
                  size: 320x240
                encoder:
                  backend: \(backend)
                  bitrate_kbps: \(bitrate)
                status:
                  interval_seconds: 1
                outputs:
                  - path: \(file.path)
                \(extraOutput.map { "  - path: \($0.path)\n" } ?? "")
                """.write(to: config, atomically: true, encoding: .utf8)
        }
        try writeConfig("auto")
        let process = try Daemon.start(["run", "--config", config.path])
        func statusLines() -> [Substring] {
            process.stderrSoFar.split(separator: "\n").filter { $0.contains(" info status ") }
        }
        #expect(Daemon.waitForLog(process, "info ready"), "\(process.stderrSoFar)")

        try writeConfig("avcodec:libx264")
        process.signal(SIGHUP)
        #expect(Daemon.waitForLog(process, "reload applied: encoder libx264 → avcodec:libx264 (new encoder session)"), "\(process.stderrSoFar)")
        // Two status lines later the new encoder has been encoding for a second.
        var seen = statusLines().count
        #expect(Daemon.waitForLog(process, "info status ", occurrences: seen + 2), "\(process.stderrSoFar)")
        #expect(statusLines().last?.contains("/800 kbit/s abr 800 ") == true, "libx264 through libavcodec adapts: \(statusLines().last ?? "")")

        try writeConfig("avcodec:h264_v4l2m2m", bitrate: 700, extraOutput: second)
        process.signal(SIGHUP)
        #expect(Daemon.waitForLog(process, "reload failed: encoder avcodec:h264_v4l2m2m: "), "\(process.stderrSoFar)")
        #expect(process.stderrSoFar.contains("Could not find a valid device"))
        #expect(Daemon.waitForLog(process, "reload failed; the stream continues unchanged"), "\(process.stderrSoFar)")
        #expect(Daemon.isRunning(process), "a failed encoder switch keeps the running one")
        seen = statusLines().count
        #expect(Daemon.waitForLog(process, "info status ", occurrences: seen + 2), "\(process.stderrSoFar)")
        let log = process.stderrSoFar
        let afterFailure = log[log.range(of: "reload failed: encoder avcodec:h264_v4l2m2m")!.lowerBound...]
        #expect(!afterFailure.contains("reload applied"), "a failed reload applies nothing: \(afterFailure)")
        #expect(!log.contains("adaptive bitrate is off"), "a warning about settings that never took effect: \(log)")
        #expect(statusLines().last?.contains("/800 kbit/s abr 800 ") == true, "adaptive bitrate still on, at the old bitrate: \(statusLines().last ?? "")")
        #expect(statusLines().last?.contains(" outputs 1 ") == true, "\(statusLines().last ?? "")")
        #expect(!FileManager.default.fileExists(atPath: second.path), "the failed reload opened an output")

        process.signal(SIGTERM)
        let result = try process.wait(timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
        let decoded = try FFmpegTools.result("ffmpeg", ["-nostdin", "-v", "error", "-xerror", "-i", file.path, "-f", "null", "-"])
        #expect(decoded.status == 0 && decoded.stderr.isEmpty, "ffmpeg -xerror: \(decoded.stderr)")
        let dts = try Self.videoPackets(file).map(\.dts)
        #expect(dts.count >= 30 && zip(dts, dts.dropFirst()).allSatisfy { $0 < $1 }, "dts must increase: \(dts)")
    }

    /// libavcodec's own lines go through Camcast's log, once, as Camcast's lines: libx264 without
    /// lookahead warns at open that mb-tree needs one, which comes out as a warning of Camcast's,
    /// not as "[libx264 @ 0x…]" from libavutil's printer too.
    @Test func libavcodecsLogLinesComeOnceThroughCamcastsLog() throws {
        let dir = try Project.scratchDirectory("avcodec-log")
        let config = dir.appendingPathComponent("camcast.yaml")
        try "encoder:\n  max_frame_delay: 0\n  realtime: false\nhttp:\n  listen: \"\"\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--config", config.path, "--source", "testpattern", "--size", "320x240", "--encoder", "avcodec:libx264",
             "--audio", "none", "--output", dir.appendingPathComponent("out.flv").path, "--duration", "1"], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let warning = "lookaheadless mb-tree requires intra refresh or infinite keyint"
        let lines = result.stderr.split(separator: "\n").filter { $0.contains(warning) }
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first.map { CamcastLog.time(of: String($0)) != nil && $0.contains(" warning libav libx264: \(warning)") } == true, "\(lines)")
        #expect(!result.stderr.contains("[libx264 @"), "\(result.stderr)")
    }

    /// This machine has no mem2mem encoder: the start fails at once, naming the encoder and
    /// libavcodec's reason, and leaves nothing behind (no half-started daemon, no file).
    @Test func aMem2memEncoderWithoutADeviceFailsToStartClearly() throws {
        let dir = try Project.scratchDirectory("avcodec-no-device")
        let file = dir.appendingPathComponent("out.flv")
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--source", "testpattern", "--encoder", "avcodec:h264_v4l2m2m", "--output", file.path, "--duration", "5"], timeout: 60)
        #expect(result.status != 0 && result.status != 78, "a start failure, not a configuration problem: \(result.status)")
        #expect(result.stderr.contains("libavcodec could not open avcodec:h264_v4l2m2m: Could not find a valid device"), "\(result.stderr)")
        // libavcodec's reason once, in the error; not also raw from its own printer.
        #expect(result.stderr.components(separatedBy: "Could not find a valid device").count == 2, "\(result.stderr)")
        #expect(!result.stderr.contains("[h264_v4l2m2m @"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: file.path), "the failed start left \(file.lastPathComponent)")
        // check-config only knows the name is an H.264 encoder libavcodec has: not its problem.
        let config = dir.appendingPathComponent("camcast.yaml")
        try "encoder:\n  backend: avcodec:h264_v4l2m2m\noutputs:\n  - path: \(file.path)\n".write(to: config, atomically: true, encoding: .utf8)
        let check = try ProcessRunner.run(Project.camcastBinary.path, ["check-config", config.path], timeout: 60)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("avcodec:h264_v4l2m2m"), "the summary names the encoder: \(check.stdout)")
    }
}
