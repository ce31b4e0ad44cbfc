import Foundation
import TestSupport
import Testing

extension RecordingTests {
    /// `max_age_seconds` end to end: the daemon deletes, from the disk, its segments that ended
    /// more than that long ago, oldest first, and no younger one. A segment's age is whole seconds
    /// since it ended (RecordingIndex), so one is deleted once it ended `maxAge + 1` s before a
    /// sweep (every fragment, and the stop). Times are the log's: a segment ends as the next one
    /// begins, and its "recording segment" line follows that by the time of opening a file.
    @Test func maxAgeDeletesTheSegmentsThatEndedLongerAgoAndNoOthers() throws {
        let dir = try Project.scratchDirectory("record-max-age")
        let maxAge = 3
        let config = try Self.config(dir, "    segment_seconds: 1\n    max_age_seconds: \(maxAge)")
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--config", config.path, "--source", "testpattern", "--size", "320x240", "--fps", "30",
             "--keyint-seconds", "1", "--bitrate", "300", "--duration", "10"],
            timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let starts = lines.filter { $0.contains("recording segment") }.compactMap { line -> (path: String, at: Date)? in
            guard let path = line.split(separator: " ").first(where: { $0.hasPrefix("path=") }), let at = CamcastLog.time(of: line) else { return nil }
            return (String(path.dropFirst(5)), at)
        }
        let stopped = try #require(lines.last { $0.contains("stopped") }.flatMap(CamcastLog.time(of:)), "no stop summary: \(result.stderr)")
        try #require(starts.count >= 8, "\(starts.count) segments in 10 s of one-second segments")

        let kept = starts.filter { FileManager.default.fileExists(atPath: $0.path) }.map(\.path)
        // Some went, the oldest first: what is left is the tail of what was written.
        #expect(!kept.isEmpty && kept.count < starts.count, "kept \(kept.count) of \(starts.count)")
        #expect(kept == Array(starts.map(\.path).suffix(kept.count)), "kept \(kept) of \(starts.map(\.path))")
        // Only old ones: each deleted segment ended (its successor began) at least maxAge + 1 s before
        // the stop, less the 0.25 s a log line may trail the switch by (opening the next file).
        for (segment, next) in zip(starts, starts.dropFirst()) where !kept.contains(segment.path) {
            let age = stopped.timeIntervalSince(next.at)
            #expect(age >= Double(maxAge + 1) - 0.25, "\(segment.path) deleted \(age) s after it ended")
        }
        // The retention also told the operator, and counted it.
        #expect(lines.contains { $0.contains("retention deleted old segments") }, "\(result.stderr)")
        for file in kept { #expect(try ProbedVideo.decodeErrors(URL(fileURLWithPath: file)) == "") }
    }
}
