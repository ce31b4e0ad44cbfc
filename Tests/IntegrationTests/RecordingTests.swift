import Foundation
import TestSupport
import Testing

/// Segmented MP4 recording (`outputs: - record:`), judged by ffprobe and ffmpeg: each segment
/// starts with a keyframe, lasts its segment length to within one keyframe interval, carries the
/// AAC track and decodes clean; consecutive segments lose and double no frame; a `kill -9` leaves
/// a file that plays to its last fragment; retention deletes the oldest of its own files only.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct RecordingTests {
    static func config(_ directory: URL, _ recordKeys: String, extra: String = "", codec: String = "h264") throws -> URL {
        let file = directory.appendingPathComponent("camcast.yaml")
        try """
            encoder:
              codec: \(codec)
            outputs:
              - record: \(directory.appendingPathComponent("rec").path)
            \(recordKeys)
            \(extra)
            """.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test(arguments: ["h264", "h265"])
    func segmentsAreWholeAndContinuous(_ codec: String) throws {
        let dir = try Project.scratchDirectory("record-\(codec)")
        // The independent record of the run, written by another output: an .flv (its times are
        // the stream's) for H.264; ffprobe 5.1 reads no H.265 in FLV, so a raw .h265 there, which
        // says which pictures came in which order, but not when.
        let whole = dir.appendingPathComponent(codec == "h264" ? "whole.flv" : "whole.h265")
        let config = try Self.config(dir, "    segment_seconds: 2", extra: "  - path: \(whole.path)", codec: codec)
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--config", config.path, "--source", "testpattern", "--size", "320x240", "--fps", "30",
             "--keyint-seconds", "1", "--bitrate", "500", "--duration", "9"],
            timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        let encoded = try #require(CamcastLog.stopCount("frames", in: result.stderr), "no stop summary\n\(result.stderr)")
        let unencoded = try #require(CamcastLog.unencodedSlots(in: result.stderr))
        let segments = RecordingProbe.segments(in: dir.appendingPathComponent("rec"))
        #expect(segments.count >= 4, "\(segments.map(\.lastPathComponent))")
        for segment in segments {
            let probe = try RecordingProbe.probe(segment)
            let name = segment.lastPathComponent
            #expect(probe.videoCodec == (codec == "h264" ? "h264" : "hevc"), "\(name)")
            #expect(probe.audioCodec == "aac", "\(name): no AAC track")
            #expect(probe.videoPackets.first?.isKeyframe == true, "\(name) must start with a keyframe")
            // Sound and pictures start together (within one AAC frame, 21 ms, and a millisecond).
            if let video = probe.videoStart, let audio = probe.audioStart {
                #expect(abs(audio - video) <= 0.025, "\(name): video starts at \(video) s, audio at \(audio) s")
            }
            #expect(try ProbedVideo.decodeErrors(segment) == "", "\(name)")
            #expect(probe.decodedFrames == probe.videoPackets.count, "\(name)")
        }
        // Picture by picture against the other output: every picture of the run in exactly one
        // segment, in order; for H.264, each on the stream's time line and each cut where the
        // rule says, on that output's times. The raw .h265 has no times: there the cut is judged
        // within the segment, its length less the slots the run left unfilled (the stop summary's).
        let check = try SegmentsAgainstReference(segments: segments, reference: whole)
        #expect(check.continuityProblems() == [])
        if codec == "h264" {
            #expect(check.cutProblems(segmentSeconds: 2) == [])
            #expect(check.timelineProblems() == [])
        } else {
            for segment in segments.dropLast() {
                let problem = try RecordingProbe.probe(segment).cutProblem(segmentSeconds: 2, keyint: 30, unencodedSlots: unencoded, frameRate: 30)
                #expect(problem == nil, "\(segment.lastPathComponent): \(problem ?? "")")
            }
        }
        // And the run's: the other output holds every picture encoded, and every frame slot of the
        // 9 s was encoded, skipped at the source or dropped at the encoder's full queue (a loaded
        // machine loses some; how many is its speed, not a bound of ours), 2 for the ends' rounding.
        #expect(check.reference.pictures.count == encoded, "the \(whole.lastPathComponent) has \(check.reference.pictures.count) pictures, \(encoded) were encoded")
        #expect(abs(encoded + unencoded - 9 * 30) <= 2, "\(encoded) encoded + \(unencoded) skipped or dropped at the encoder in 9 s at 30 fps")
    }

    /// `container: ts`: the same segments as MPEG-TS through libavformat's mpegts muxer, named
    /// `.ts` by default; ffprobe reads the format, and the parameter sets before each segment's
    /// first keyframe (the muxer repeats them), the AAC track (in ADTS) and every frame of the run.
    @Test func mpegTSSegmentsAreWholeAndContinuous() throws {
        let dir = try Project.scratchDirectory("record-ts")
        let whole = dir.appendingPathComponent("whole.flv")
        let config = try Self.config(dir, "    segment_seconds: 2\n    container: ts", extra: "  - path: \(whole.path)")
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--config", config.path, "--source", "testpattern", "--size", "320x240", "--fps", "30",
             "--keyint-seconds", "1", "--bitrate", "500", "--duration", "7"],
            timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        let segments = RecordingProbe.segments(in: dir.appendingPathComponent("rec"), suffix: ".ts")
        #expect(segments.count >= 3, "\(segments.map(\.lastPathComponent))")
        #expect(RecordingProbe.segments(in: dir.appendingPathComponent("rec")).isEmpty, "an .mp4 among the .ts segments")
        for segment in segments {
            let name = segment.lastPathComponent
            let format = String(decoding: try FFmpegTools.run(
                "ffprobe", ["-v", "error", "-show_entries", "format=format_name", "-of", "csv=p=0", segment.path]), as: UTF8.self)
            #expect(format.trimmingCharacters(in: .whitespacesAndNewlines) == "mpegts", "\(name): \(format)")
            let probe = try RecordingProbe.probe(segment)
            #expect(probe.videoCodec == "h264" && probe.audioCodec == "aac", "\(name): \(probe.videoCodec) \(probe.audioCodec ?? "no audio")")
            #expect(probe.videoPackets.first?.isKeyframe == true, "\(name) must start with a keyframe")
            #expect(try ProbedVideo.decodeErrors(segment) == "", "\(name)")
            #expect(probe.decodedFrames == probe.videoPackets.count, "\(name)")
        }
        // Picture by picture against the .flv output of the same run: every picture in exactly one
        // segment, on the stream's time line, each cut at the first keyframe 2 s on.
        let check = try SegmentsAgainstReference(segments: segments, reference: whole)
        #expect(check.continuityProblems() == [])
        #expect(check.cutProblems(segmentSeconds: 2) == [])
        #expect(check.timelineProblems() == [])
        #expect(!check.reference.pictures.isEmpty, "the .flv holds no picture")
    }

    /// Killed in the middle of a segment, the file holds whole fragments only: every keyframe
    /// interval in it complete. Fed a looping clip at `--pace fast` (the encoder's speed, never a
    /// skipped slot), each interval is exactly 30 pictures (1 s at 30 fps), the last one too, on
    /// any machine; a live source would skip slots under load, and a short last interval could be
    /// either a cut fragment or a loaded machine.
    @Test func killNineMidSegmentLeavesAFileThatPlaysToItsLastFragment() throws {
        let dir = try Project.scratchDirectory("record-kill")
        let clip = try FileSourceTests.clip(in: dir)
        let config = try Self.config(dir, "    segment_seconds: 600")
        let camcast = try Daemon.start(
            ["run", "--config", config.path, "--source", clip.path, "--pace", "fast",
             "--keyint-seconds", "1", "--bitrate", "500"])
        defer { camcast.signal(SIGKILL) }
        #expect(Daemon.waitForLog(camcast, "recording segment", timeout: 30), "\(camcast.stderrSoFar)")
        let segment = try #require(RecordingProbe.segments(in: dir.appendingPathComponent("rec")).first)
        // Three fragments on the disk (about 62 kB a second of media), and more on their way.
        #expect(RecordingProbe.waitUntil(timeout: 30) { RecordingProbe.size(segment) > 180_000 })
        camcast.signal(SIGKILL)
        _ = try camcast.wait(timeout: 10)
        let probe = try RecordingProbe.probe(segment)
        #expect(try ProbedVideo.decodeErrors(segment) == "")
        #expect(probe.decodedFrames == probe.videoPackets.count)
        let keyframes = probe.videoPackets.indices.filter { probe.videoPackets[$0].isKeyframe }
        let intervals = zip(keyframes, keyframes.dropFirst() + [probe.videoPackets.count]).map { $1 - $0 }
        #expect(keyframes.first == 0 && intervals.count >= 3, "keyframes at pictures \(keyframes)")
        #expect(intervals.allSatisfy { $0 == 30 }, "pictures per keyframe interval, the last the file ends in: \(intervals)")
        // Cut in the middle: the segment was not closed (600 s of media were not reached).
        #expect((probe.videoPackets.last?.dtsSeconds ?? 600) < 590, "the segment ended before the kill")
    }

    @Test func retentionDeletesTheOldestOfItsOwnFilesOnly() throws {
        let dir = try Project.scratchDirectory("record-retention")
        let folder = dir.appendingPathComponent("rec")
        let today = folder.appendingPathComponent("2020-01-01")
        try FileManager.default.createDirectory(at: today, withIntermediateDirectories: true)
        // A user's files: one with a name the pattern could make, one without.
        let foreign = [today.appendingPathComponent("00-00-00+0000.mp4"), folder.appendingPathComponent("holiday.mp4")]
        for file in foreign { try Data(repeating: 7, count: 100_000).write(to: file) }
        let maxBytes = 300_000
        let config = try Self.config(dir, "    segment_seconds: 1\n    max_bytes: \(maxBytes)")
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--config", config.path, "--source", "testpattern", "--size", "320x240", "--fps", "30",
             "--keyint-seconds", "1", "--bitrate", "500", "--duration", "12"],
            timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        for file in foreign { #expect(FileManager.default.fileExists(atPath: file.path), "\(file.lastPathComponent) was deleted") }
        let written = result.stderr.split(separator: "\n").filter { $0.contains("recording segment") }.compactMap {
            $0.split(separator: " ").first { $0.hasPrefix("path=") }.map { String($0.dropFirst(5)) }
        }
        #expect(written.count >= 10, "\(written)")
        let kept = written.filter { FileManager.default.fileExists(atPath: $0) }
        // The newest are kept, the oldest went first: what is left is a tail of what was written.
        #expect(!kept.isEmpty && kept.count < written.count)
        #expect(kept == Array(written.suffix(kept.count)), "kept \(kept) of \(written)")
        let total = kept.reduce(0) { $0 + RecordingProbe.size(URL(fileURLWithPath: $1)) }
        #expect(total <= maxBytes, "\(total) bytes kept")
        for file in kept { #expect(try ProbedVideo.decodeErrors(URL(fileURLWithPath: file)) == "") }
    }

    @Test func recordFlagAloneRecordsWithTheDefaults() throws {
        let dir = try Project.scratchDirectory("record-flag")
        let folder = dir.appendingPathComponent("rec")
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--source", "testpattern", "--size", "320x240", "--duration", "3", "--record", folder.path], timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let segments = RecordingProbe.segments(in: folder)
        #expect(segments.count == 1, "\(segments)")
        // Named by the default pattern: a day folder, the local time and its offset.
        let name = try #require(segments.first).path.dropFirst(folder.path.count + 1)
        #expect(name.range(of: #"^\d{4}-\d{2}-\d{2}/\d{2}-\d{2}-\d{2}[+-]\d{4}\.mp4$"#, options: .regularExpression) != nil, "\(name)")
        for segment in segments { #expect(try ProbedVideo.decodeErrors(segment) == "") }
    }

    /// A reload that changes `segment_seconds` closes the recorder and opens a new one: the files
    /// on either side are continuous, and at most one keyframe interval (30 frames here) is lost
    /// at the swap, found picture by picture against an .flv of the whole run that the reload
    /// leaves alone.
    @Test func aReloadAppliesNewSegmentSettingsLosingAtMostOneGOP() throws {
        let dir = try Project.scratchDirectory("record-reload")
        let whole = dir.appendingPathComponent("whole.flv")
        let config = try Self.config(dir, "    segment_seconds: 60", extra: "  - path: \(whole.path)")
        let camcast = try Daemon.start(
            ["run", "--config", config.path, "--source", "testpattern", "--size", "320x240", "--fps", "30", "--keyint-seconds", "1"])
        defer { camcast.signal(SIGKILL) }
        #expect(Daemon.waitForLog(camcast, "recording segment", timeout: 30), "\(camcast.stderrSoFar)")
        usleep(2_500_000)  // mid-GOP, well into the first segment
        _ = try Self.config(dir, "    segment_seconds: 1", extra: "  - path: \(whole.path)")
        camcast.signal(SIGHUP)
        #expect(Daemon.waitForLog(camcast, "reload applied: opened record", timeout: 20), "\(camcast.stderrSoFar)")
        #expect(Daemon.waitForLog(camcast, "recording segment", occurrences: 4, timeout: 30), "\(camcast.stderrSoFar)")
        camcast.signal(SIGTERM)
        let result = try camcast.wait(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let applied = result.stderr.split(separator: "\n").filter { $0.contains("reload applied") }
        #expect(!applied.isEmpty && !applied.contains { $0.contains("whole.flv") }, "the .flv output must stay open: \(applied)")
        let segments = RecordingProbe.segments(in: dir.appendingPathComponent("rec"))
        #expect(segments.count >= 4, "\(segments.map(\.lastPathComponent))")
        for segment in segments {
            let probe = try RecordingProbe.probe(segment)
            let name = segment.lastPathComponent
            #expect(probe.videoPackets.first?.isKeyframe == true, "\(name) must start with a keyframe")
            #expect(try ProbedVideo.decodeErrors(segment) == "", "\(name)")
            #expect(probe.decodedFrames == probe.videoPackets.count, "\(name)")
        }
        // Picture by picture against the .flv: what the segments lack is one run of pictures at
        // the swap, between the first segment (the old recorder's) and the second, of at most one
        // keyframe interval (30); nothing else lost, doubled or moved. After the reload, each
        // segment is cut at the first keyframe a second on, on the .flv's times.
        let check = try SegmentsAgainstReference(segments: segments, reference: whole)
        let endOfOld = check.positions[0].compactMap { $0 }.last ?? -1
        let startOfNew = check.positions[1].compactMap { $0 }.first ?? endOfOld + 1
        let swap = endOfOld < startOfNew ? Set(endOfOld + 1..<startOfNew) : []
        #expect(swap.count <= 30, "the reload lost \(swap.count) pictures (at most one GOP, 30)")
        #expect(check.continuityProblems(allowedLoss: swap) == [])
        #expect(check.timelineProblems() == [])
        var afterReload = check
        afterReload.segments.removeFirst()
        afterReload.positions.removeFirst()
        #expect(afterReload.cutProblems(segmentSeconds: 1) == [])
    }
}
