import Foundation
import TestSupport
import Testing

/// A wall clock that jumps (NTP stepping the time after boot): segments keep their length (stream
/// time, the monotonic capture clock), each is named by the wall clock at its start, and retention,
/// which ages segments on CLOCK_BOOTTIME, deletes nothing fresh after a step of two hours.
///
/// The step is made through the debug build's `CAMCAST_DEBUG_RECORDING_WALL_CLOCK_FILE` (the
/// recorder's wall clock is the real one plus the file's seconds): the machine's own clock is
/// shared with every other test and cannot be stepped, and a time namespace moves only the
/// monotonic and boot clocks.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct RecordingClockJumpTests {
    /// `2026-11-26/07-16-03+0100.mp4` (or `…-2.mp4`) → its Unix time.
    static func startTime(ofSegment name: String) -> Double? {
        var stem = String(name.dropLast(".mp4".count))
        if let numbered = stem.range(of: #"-\d+$"#, options: .regularExpression), stem.count > 25 { stem.removeSubrange(numbered) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd/HH-mm-ssZ"
        return formatter.date(from: stem)?.timeIntervalSince1970
    }

    /// The log's `recording segment path=…` lines: (the line's own UTC time, the segment's name).
    static func segmentStarts(in log: String, folder: String) -> [(logged: Double, name: String)] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return log.split(separator: "\n").filter { $0.contains("recording segment") }.compactMap { line in
            guard let path = line.split(separator: " ").first(where: { $0.hasPrefix("path=") })?.dropFirst(5),
                let logged = formatter.date(from: String(line.prefix(19)))
            else { return nil }
            return (logged.timeIntervalSince1970, String(path.dropFirst(folder.count + 1)))
        }
    }

    @Test func segmentsFollowTheMonotonicClockAndAreNamedByTheWallClock() throws {
        let dir = try Project.scratchDirectory("record-clock-jump")
        let folder = dir.appendingPathComponent("rec")
        let whole = dir.appendingPathComponent("whole.flv")
        let offset = dir.appendingPathComponent("wall-offset")
        try "0\n".write(to: offset, atomically: true, encoding: .utf8)
        let config = try RecordingTests.config(dir, "    segment_seconds: 2\n    max_age_seconds: 60", extra: "  - path: \(whole.path)")
        let camcast = try Daemon.start(
            ["run", "--config", config.path, "--source", "testpattern", "--size", "320x240", "--fps", "30", "--keyint-seconds", "1",
             "--bitrate", "500"],
            environment: ["CAMCAST_DEBUG_RECORDING_WALL_CLOCK_FILE": offset.path])
        defer { camcast.signal(SIGKILL) }
        // Two segments on the real clock, then NTP steps it two hours ahead (far past
        // max_age_seconds), then back to an hour behind the real time.
        try #require(Daemon.waitForLog(camcast, "recording segment", occurrences: 2, timeout: 30), "\(camcast.stderrSoFar)")
        usleep(700_000)  // mid-segment
        try "7200\n".write(to: offset, atomically: true, encoding: .utf8)
        try #require(Daemon.waitForLog(camcast, "recording segment", occurrences: 5, timeout: 30), "\(camcast.stderrSoFar)")
        usleep(700_000)
        try "-3600\n".write(to: offset, atomically: true, encoding: .utf8)
        try #require(Daemon.waitForLog(camcast, "recording segment", occurrences: 8, timeout: 30), "\(camcast.stderrSoFar)")
        camcast.signal(SIGTERM)
        let result = try camcast.wait(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")

        // Names: the wall clock at each segment's start, so the step shows in them, in order.
        let starts = Self.segmentStarts(in: result.stderr, folder: folder.path)
        #expect(starts.count >= 8, "\(starts.map(\.name))")
        let steps = starts.compactMap { start in
            Self.startTime(ofSegment: start.name).map { named in [0.0, 7200, -3600].first { abs(named - start.logged - $0) <= 3 } }
        }
        #expect(steps.count == starts.count && !steps.contains(nil), "names vs. log times: \(starts)")
        let sequence = steps.compactMap { $0 }
        #expect(sequence.first == 0 && sequence.last == -3600 && sequence.contains(7200), "\(sequence)")
        #expect(sequence == sequence.sorted { ($0 == 0 ? 0 : $0 == 7200 ? 1 : 2) < ($1 == 0 ? 0 : $1 == 7200 ? 1 : 2) }, "\(sequence)")

        // Retention aged nothing by the stepped clock: every segment is still there.
        #expect(!result.stderr.contains("retention deleted"), "\(result.stderr)")
        let segments = RecordingProbe.segments(in: folder)
        #expect(segments.count == starts.count, "\(segments.map(\.lastPathComponent)) vs \(starts.map(\.name))")

        // Lengths follow stream time: no step cut one short or stretched one; nothing lost or
        // doubled. Judged picture by picture against the .flv output of the same run, whose times
        // are the stream's and which no wall clock touches.
        for segment in segments { #expect(try ProbedVideo.decodeErrors(segment) == "", "\(segment.lastPathComponent)") }
        let check = try SegmentsAgainstReference(segments: segments, reference: whole)
        for segment in check.segments { #expect(segment.pictures.first?.isKeyframe == true, "\(segment.file.lastPathComponent)") }
        #expect(check.continuityProblems() == [])
        #expect(check.cutProblems(segmentSeconds: 2) == [])
        #expect(check.timelineProblems() == [])
    }
}
