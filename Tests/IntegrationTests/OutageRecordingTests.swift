import Foundation
import TestSupport
import Testing

/// `mode: outage`: nginx-rtmp stopped for 10 s mid-stream gives one MP4 that holds what the
/// viewers missed, from `pre_seconds` before the loss to `post_seconds` after the return, and that
/// ffmpeg decodes clean. Judged against what reached the viewers: nginx-rtmp's recordings of the
/// two sessions, before and after, picture by picture (ffmpeg's framemd5), and an .flv output of
/// the whole run, which no outage touches.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct OutageRecordingTests {
    @Test func anOutageFileCoversFromBeforeTheLossToAfterTheReturn() throws {
        // One file per publish (`outage-<epoch>.flv`): the session before the outage is not
        // overwritten by the one after.
        let server = try RTMPServer(environment: ["RTMP_RECORD_UNIQUE": "on"])
        defer { try? server.stop() }
        let dir = try Project.scratchDirectory("record-outage")
        let folder = dir.appendingPathComponent("rec")
        let whole = dir.appendingPathComponent("whole.flv")
        let (preSeconds, postSeconds) = (3.0, 3.0)
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
            outputs:
              - url: \(server.url(app: "rec", name: "outage"))
              - record: \(folder.path)
                mode: outage
                pre_seconds: \(preSeconds)
                post_seconds: \(postSeconds)
              - path: \(whole.path)
            reconnect:
              initial_delay_seconds: 0.5
              max_delay_seconds: 1
            """.write(to: config, atomically: true, encoding: .utf8)
        let camcast = try Daemon.start(
            ["run", "--config", config.path, "--source", "testpattern", "--size", "320x240", "--fps", "30",
             "--keyint-seconds", "1", "--bitrate", "500"])
        defer { camcast.signal(SIGKILL) }
        // Five seconds and more at the server: the pre-roll is full.
        let before = { (try? server.uniqueRecordings("outage"))?.first }
        #expect(RecordingProbe.waitUntil(timeout: 30) { before().map(RecordingProbe.size) ?? 0 > 330_000 }, "\(camcast.stderrSoFar)")
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
        #expect(probe.videoSeconds >= 16, "\(probe.videoSeconds) s: 3 before, 10 out, 3 after")

        // The file holds every picture of the run from its first to its last, each at its time:
        // nothing the viewers missed is missing from it.
        let check = try SegmentsAgainstReference(segments: [segment], reference: whole)
        let held = check.positions[0].compactMap { $0 }
        let span = try #require(held.first.flatMap { first in held.last.map { first...$0 } }, "no picture of the file is in the .flv")
        #expect(check.continuityProblems(span: span) == [])
        #expect(check.timelineProblems() == [])

        // What reached the viewers, session by session, on the outage file's time line.
        let sessions = try server.uniqueRecordings("outage")
        try #require(sessions.count == 2, "\(sessions.map(\.lastPathComponent))")
        let outage = check.segments[0].pictures
        let viewersBefore = try DecodedPictures(sessions[0]), viewersAfter = try DecodedPictures(sessions[1])
        let seenBefore = viewersBefore.indices(of: outage).enumerated().filter { $0.element != nil }.map(\.offset)
        let seenAfter = viewersAfter.indices(of: outage).enumerated().filter { $0.element != nil }.map(\.offset)
        let lastSeen = try #require(seenBefore.last, "no picture of the file reached the viewers before the outage")
        let firstBack = try #require(seenAfter.first, "no picture of the file reached the viewers after the outage")
        // The viewers had the file's first pictures, every one up to their last, then none until
        // the return; after it, every picture to the file's end.
        #expect(seenBefore == Array(0...lastSeen), "the viewers had pictures \(seenBefore) of the file before the outage")
        #expect(seenAfter == Array(firstBack..<outage.count), "the viewers had pictures \(seenAfter) of the file after it")

        // Bounds from the keyframes, not from this machine's speed. The pre-roll is whole
        // keyframe intervals, the oldest dropped while the rest still reach pre_seconds back from
        // the picture in hand when the loss is seen: so the file's second keyframe is less than
        // pre_seconds before that picture, and the viewers' last came no later (before the
        // outage the recorder only keeps pictures in memory: it is not behind). The recording
        // ends at the first keyframe post_seconds after the return, seen when or before the
        // viewers get the new session's first picture: so its last keyframe is less than
        // post_seconds after that picture. (Times are milliseconds: half a one for rounding.)
        // The other way, the pictures camcast sent into the dead connection before its write
        // failed, and after the return the wait for the keyframe the new session starts with
        // (asked for at once), count for the viewers' side and not the file's: a fraction of a
        // keyframe interval each, bounded here by one (the run's longest, from the .flv).
        let keyframes = outage.indices.filter { outage[$0].isKeyframe }
        try #require(keyframes.count >= 2 && keyframes.first == 0, "keyframes at \(keyframes.map { outage[$0].seconds })")
        let frame = (outage[outage.count - 1].seconds - outage[0].seconds) / Double(outage.count - 1)
        let referenceKeyframes = check.reference.pictures.filter(\.isKeyframe).map(\.seconds)
        let keyint = zip(referenceKeyframes, referenceKeyframes.dropFirst()).map { $1 - $0 }.max() ?? 0
        // Overlap: from the file's first picture to the end of the viewers' last before the outage.
        let overlap = outage[lastSeen].seconds + frame - outage[0].seconds
        let sinceSecondKeyframe = outage[lastSeen].seconds - outage[keyframes[1]].seconds
        #expect(sinceSecondKeyframe < preSeconds - 0.0005, "the viewers' last picture is \(sinceSecondKeyframe) s after the file's second keyframe: a keyframe interval too many (overlap \(overlap) s, pre_seconds \(preSeconds))")
        #expect(overlap >= preSeconds - keyint, "the viewers' last \(overlap) s before the outage are in the file; pre_seconds \(preSeconds), keyframes \(keyint) s apart")
        // After the return: from the viewers' first picture back to the end of the file.
        let after = outage[outage.count - 1].seconds + frame - outage[firstBack].seconds
        let toLastKeyframe = outage[keyframes[keyframes.count - 1]].seconds - outage[firstBack].seconds
        #expect(toLastKeyframe < postSeconds - 0.0005, "the file's last keyframe is \(toLastKeyframe) s into the viewers' return: a keyframe interval too many (post_seconds \(postSeconds))")
        #expect(after >= postSeconds - keyint, "the file runs \(after) s into the viewers' return; post_seconds \(postSeconds), keyframes \(keyint) s apart")
    }
}
