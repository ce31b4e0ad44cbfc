import Foundation
import TestSupport
import Testing

/// `mode: outage`: nginx-rtmp stopped for 10 s mid-stream gives one MP4 that holds what the
/// viewers missed, from `pre_seconds` before the loss to `post_seconds` after the return (within a
/// keyframe interval at each end), and that ffmpeg decodes clean.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct OutageRecordingTests {
    /// Seconds since midnight UTC of a log line's timestamp (`2026-11-26T04:16:33.931Z …`).
    static func seconds(ofLineWith text: String, in log: String) -> Double? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains(text) }) else { return nil }
        let time = line.prefix(24).split(separator: "T").last?.dropLast() ?? ""
        let parts = time.split(separator: ":").compactMap { Double($0) }
        guard parts.count == 3 else { return nil }
        return parts[0] * 3600 + parts[1] * 60 + parts[2]
    }

    @Test func anOutageFileCoversFromBeforeTheLossToAfterTheReturn() throws {
        let server = try RTMPServer()
        defer { try? server.stop() }
        let dir = try Project.scratchDirectory("record-outage")
        let folder = dir.appendingPathComponent("rec")
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
            outputs:
              - url: \(server.url(app: "rec", name: "outage"))
              - record: \(folder.path)
                mode: outage
                pre_seconds: 3
                post_seconds: 3
            reconnect:
              initial_delay_seconds: 0.5
              max_delay_seconds: 1
            """.write(to: config, atomically: true, encoding: .utf8)
        let camcast = try Daemon.start(
            ["run", "--config", config.path, "--source", "testpattern", "--size", "320x240", "--fps", "30",
             "--keyint-seconds", "1", "--bitrate", "500"])
        defer { camcast.signal(SIGKILL) }
        // Five seconds and more at the server: the pre-roll is full.
        let recording = server.recording("outage")
        #expect(RecordingProbe.waitUntil(timeout: 30) { RecordingProbe.size(recording) > 330_000 }, "\(camcast.stderrSoFar)")
        #expect(RecordingProbe.segments(in: folder).isEmpty, "nothing is recorded while the stream is up")
        // Killed, as a crash would end it (a graceful stop lets the publishing session go on).
        try server.kill()
        #expect(Daemon.waitForLog(camcast, "recording the outage", timeout: 30), "\(camcast.stderrSoFar.replacingOccurrences(of: "\n", with: " ¶ "))")
        // The outage itself: what the viewers miss.
        usleep(10_000_000)
        try server.start()
        #expect(Daemon.waitForLog(camcast, "outage recording ends", timeout: 40), "\(camcast.stderrSoFar)")
        camcast.signal(SIGTERM)
        let result = try camcast.wait(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")

        let segments = RecordingProbe.segments(in: folder)
        #expect(segments.count == 1, "\(segments.map(\.lastPathComponent))")
        let segment = try #require(segments.first)
        let probe = try RecordingProbe.probe(segment)
        #expect(probe.videoPackets.first?.isKeyframe == true)
        #expect(probe.audioCodec == "aac")
        #expect(try ProbedVideo.decodeErrors(segment) == "")
        // From pre_seconds (3) before the loss was seen, within a keyframe interval.
        let before = result.stderr.split(separator: "\n").first { $0.contains("recording the outage") }
            .flatMap { $0.split(separator: " ").first { $0.hasPrefix("from_seconds_before=") } }
            .flatMap { Double($0.dropFirst("from_seconds_before=".count)) }
        #expect(before.map { (3.0...4.1).contains($0) } == true, "\(String(describing: before))")
        // To post_seconds (3) after the return: the file spans the pre-roll plus the time between
        // the two log lines, within a keyframe interval (and the queue's moment) at each end.
        let start = try #require(Self.seconds(ofLineWith: "recording the outage", in: result.stderr))
        let end = try #require(Self.seconds(ofLineWith: "outage recording ends", in: result.stderr))
        let reconnected = try #require(Self.seconds(ofLineWith: "RTMP reconnected", in: result.stderr))
        #expect(end - reconnected >= 2.9 && end - reconnected <= 4.5, "ended \(end - reconnected) s after the return")
        let expected = (before ?? 3) + (end - start)
        #expect(abs(probe.videoSeconds - expected) <= 1.5, "file \(probe.videoSeconds) s, expected \(expected) s")
        #expect(probe.videoSeconds >= 16, "\(probe.videoSeconds) s: 3 before, 10 out, 3 after")
    }
}
