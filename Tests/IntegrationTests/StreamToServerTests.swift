import FLV
import Foundation
import TestSupport
import Testing

/// `camcast run` end to end against a real nginx-rtmp, checked with ffprobe and ffmpeg.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct StreamToServerTests {
    static let streamKey = "sEcReT-kEy-4711"

    @Test func tenSecondsOfTestPatternArriveWhole() throws {
        let server = try RTMPServer()
        let dir = try Project.scratchDirectory("stream")
        let fileOutput = dir.appendingPathComponent("local.flv")
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--source", "testpattern", "--size", "640x360", "--fps", "30", "--bitrate", "1000",
             "--keyint-seconds", "2", "--duration", "10",
             "--output", server.url(app: "rec", name: Self.streamKey), "--output", fileOutput.path],
            timeout: 60)
        #expect(result.status == 0, "camcast failed: \(result.stderr)")
        #expect(!result.stderr.contains(Self.streamKey), "the stream key leaked into the log")
        #expect(!result.stdout.contains(Self.streamKey))
        // Every picture went to librtmp from the tag body the muxer built, never copied again (issue 26).
        let closed = result.stderr.split(separator: "\n").filter { $0.contains("RTMP publish closed") }
        #expect(closed.count == 1 && closed.allSatisfy { $0.contains(" bodiesCopied=0") }, "\(closed)")
        try server.stop()  // nginx closes the recording

        // Every slot of the 10 s is encoded, or was skipped at the source or dropped at the encoder's
        // full queue (a loaded machine's, however many), and every picture encoded is in both files.
        let encoded = try #require(CamcastLog.stopCount("frames", in: result.stderr), "no stop summary\n\(result.stderr)")
        let unencoded = try #require(CamcastLog.unencodedSlots(in: result.stderr))
        #expect(abs(encoded + unencoded - 300) <= 2, "\(encoded) encoded + \(unencoded) unencoded of 300 slots")
        for file in [server.recording(Self.streamKey), fileOutput] {
            let video = try ProbedVideo.probe(file)
            #expect(video.codec == "h264")
            #expect(video.width == 640 && video.height == 360)
            #expect(video.decodedFrames == encoded, "\(file.lastPathComponent): \(video.decodedFrames) frames of \(encoded)")
            #expect(video.packets.count == encoded)
            #expect(video.packets.first?.isKeyframe == true, "the first packet must be a keyframe")
            // Each picture on a frame slot after the one before (FLV's whole milliseconds: ±1.5 ms
            // of k × 33.3), the slots between them no more than went unencoded.
            let times = video.packets.map(\.dtsMilliseconds)
            let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
            let slots = gaps.map { Int((Double($0) * 30 / 1000).rounded()) }
            let offSlot = zip(gaps, slots).filter { $1 < 1 || abs(Double($0) - Double($1) * 1000 / 30) > 1.5 }.map(\.0)
            #expect(offSlot.isEmpty, "\(file.lastPathComponent): gaps off the 30 fps slots: \(Set(offSlot).sorted())")
            #expect(slots.reduce(0) { $0 + $1 - 1 } <= unencoded, "\(file.lastPathComponent): slots missing \(slots.reduce(0) { $0 + $1 - 1 }), unencoded \(unencoded)")
            // Keyframes every 2 s of media time (every 60th picture when none was skipped).
            let schedule = KeyframeScheduleCheck.problems(times: times, keys: video.packets.map(\.isKeyframe), dueAfterMilliseconds: 1983)
            #expect(schedule.isEmpty, "\(file.lastPathComponent): \(schedule)")
            #expect(try ProbedVideo.decodeErrors(file) == "")
        }
    }

    @Test func closedPortFailsFastWithClearError() throws {
        // A port nothing listens on: reserve one by starting and stopping a server.
        let server = try RTMPServer()
        try server.stop()
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--size", "320x180", "--output", server.url(app: "live", name: Self.streamKey), "--duration", "5",
             "--no-reconnect"],
            timeout: 30)
        #expect(result.status != 0)
        #expect(result.seconds < 10)
        let lastLine = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(lastLine.lowercased().contains("refused"), "last line: \(lastLine)")
        #expect(lastLine.contains("rtmp://127.0.0.1:\(server.port)/live/****"), "names the redacted URL: \(lastLine)")
        #expect(!result.stderr.contains(Self.streamKey))
    }

    @Test func refusedPublishFailsFastWithClearError() throws {
        let server = try RTMPServer()
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--size", "320x180", "--output", server.url(app: "denyall", name: Self.streamKey), "--duration", "5",
             "--no-reconnect"],
            timeout: 30)
        #expect(result.status != 0)
        #expect(result.seconds < 15)
        let lastLine = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(lastLine.contains("rtmp://127.0.0.1:\(server.port)/denyall/****"), "last line: \(lastLine)")
        #expect(!result.stderr.contains(Self.streamKey))
    }

    @Test func sigtermEndsTheFileWithEndOfSequence() throws {
        let dir = try Project.scratchDirectory("sigterm")
        let file = dir.appendingPathComponent("out.flv")
        let process = try ProcessRunner.start(
            Project.camcastBinary.path, ["run", "--size", "320x180", "--fps", "30", "--output", file.path])
        // Wait until it streams, then stop it the way systemd does.
        let deadline = Date().addingTimeInterval(20)
        while !process.stderrSoFar.contains("streaming") && Date() < deadline { usleep(50_000) }
        usleep(1_500_000)
        process.signal(SIGTERM)
        let result = try process.wait(timeout: 15)
        #expect(result.status == 0, "exit after SIGTERM: \(result.stderr)")

        let (_, tags) = try FLVReader.readFile(atPath: file.path)
        let last = try #require(tags.last)
        let body = try FLVVideoTagBody(parsing: last.body)
        #expect(last.type == .video)
        #expect(body.avcPacketType == .endOfSequence)
        #expect(try ProbedVideo.decodeErrors(file) == "")
        // The duration in onMetaData was patched to the real length when the file was closed.
        let script = try #require(tags.first { $0.type == .scriptData })
        let metadata = try FLVMetadata(scriptDataBody: script.body)
        let videoTags = tags.filter { $0.type == .video }
        let span = Double(videoTags.last!.timestamp - videoTags.first!.timestamp) / 1000
        #expect(metadata.duration > 1)
        #expect(abs(metadata.duration - span) < 0.2, "duration \(metadata.duration) vs tags spanning \(span) s")
    }

    @Test func badFlagsAreAllReportedWithExitStatus78() throws {
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--size", "641x360", "--fps", "abc", "--bitrate", "5", "--output", "rtmp://host/app/\(Self.streamKey) x"],
            timeout: 30)
        #expect(result.status == 78)
        // Each flag's problem names the config key it sets, and all four come together.
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.contains { $0.contains("source.fps") && $0.contains("abc") })
        #expect(lines.contains { $0.contains("source.size") && $0.contains("641x360") })
        #expect(lines.contains { $0.contains("encoder.bitrate_kbps") && $0.contains("5") })
        #expect(lines.contains { $0.contains("outputs[0]") })
        #expect(!result.stderr.contains(Self.streamKey))
    }

    @Test func configFileDrivesTheRunAndFlagsOverrideIt() throws {
        let dir = try Project.scratchDirectory("config")
        let file = dir.appendingPathComponent("out.flv")
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
            source:
              type: testpattern
              size: 320x180
              fps: 15
            encoder:
              bitrate_kbps: 400
              keyframe_interval_seconds: 1
            outputs:
              - path: \(file.path)
            """.write(to: config, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run(
            Project.camcastBinary.path, ["run", "--config", config.path, "--size", "256x144", "--duration", "2"], timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let video = try ProbedVideo.probe(file)
        #expect(video.width == 256 && video.height == 144, "the flag wins over the file")
        #expect(video.decodedFrames == 30, "15 fps from the file for 2 s")
        #expect(video.packets.enumerated().filter { $0.element.isKeyframe }.map(\.offset) == [0, 15])
    }

    @Test func badConfigFileIsRejectedWithKeyAndLine() throws {
        let dir = try Project.scratchDirectory("badconfig")
        let config = dir.appendingPathComponent("camcast.yaml")
        try "encoder:\n  bitrat_kbps: 400\noutputs:\n  - url: rtmp://h/app/\(Self.streamKey)\n".write(
            to: config, atomically: true, encoding: .utf8)
        for arguments in [["run", "--config", config.path], ["check-config", config.path]] {
            let result = try ProcessRunner.run(Project.camcastBinary.path, arguments, timeout: 30)
            #expect(result.status == 78)
            #expect(result.stderr.contains("camcast.yaml:2:3: encoder.bitrat_kbps"), "\(result.stderr)")
            #expect(result.stderr.contains("did you mean `bitrate_kbps`"))
            #expect(!result.stderr.contains(Self.streamKey))
        }
    }
}
