import Foundation
import TestSupport
import Testing

/// `camcast run --source FILE.y4m` end to end: a clip made by ffmpeg, played once, checked with ffprobe.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct FileSourceTests {
    /// One second of ffmpeg's testsrc2 at 320x180, 30 fps, as YUV4MPEG2.
    static func clip(in dir: URL) throws -> URL {
        let clip = dir.appendingPathComponent("testsrc2.y4m")
        let made = try FFmpegTools.result(
            "ffmpeg",
            ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-t", "1",
             "-pix_fmt", "yuv420p", "-y", clip.path])
        guard made.status == 0 else { throw HarnessError("ffmpeg could not make the clip: \(made.stderr)") }
        return clip
    }

    /// A config that plays `clip` once (looping is the default) into `output`.
    static func config(clip: String, output: URL, in dir: URL) throws -> URL {
        let config = dir.appendingPathComponent("camcast.yaml")
        try "source:\n  type: file\n  file: \"\(clip)\"\n  loop: false\noutputs:\n  - path: \(output.path)\n"
            .write(to: config, atomically: true, encoding: .utf8)
        return config
    }

    @Test(arguments: ["fast", "realtime"])
    func aClipPlayedOnceArrivesWholeWithItsOwnSizeAndRate(pace: String) throws {
        let dir = try Project.scratchDirectory("file-source")
        let clip = try Self.clip(in: dir)
        let output = dir.appendingPathComponent("out.flv")
        let config = try Self.config(clip: clip.path, output: output, in: dir)
        // The clip's header wins over --size/--fps defaults (1280x720): nothing is scaled.
        let result = try ProcessRunner.run(
            Project.camcastBinary.path, ["run", "--config", config.path, "--pace", pace], timeout: 60)
        #expect(result.status == 0, "camcast failed: \(result.stderr)")
        #expect(result.stderr.contains("reason=sourceEnded"), "stops at the end of the clip: \(result.stderr)")

        let video = try ProbedVideo.probe(output)
        #expect(video.codec == "h264" && video.width == 320 && video.height == 180)
        if pace == "fast" {
            // Flat out nothing is skipped; in real time a busy machine may skip a frame, as a camera would.
            #expect(video.decodedFrames == 30)
        } else {
            // Paced, each of the clip's 30 frames is encoded, or skipped at the source or dropped at
            // the encoder's full queue (counted).
            let encoded = try #require(CamcastLog.stopCount("frames", in: result.stderr), "no stop summary\n\(result.stderr)")
            let unencoded = try #require(CamcastLog.unencodedSlots(in: result.stderr))
            #expect(video.decodedFrames == encoded && encoded + unencoded == 30, "\(video.decodedFrames) decoded, \(encoded) encoded, \(unencoded) skipped or dropped at the encoder of 30")
        }
        let gaps = zip(video.packets, video.packets.dropFirst()).map { $1.dtsMilliseconds - $0.dtsMilliseconds }
        // Even flat out, stamps are one frame interval apart (a skipped frame leaves a multiple of it).
        #expect(gaps.allSatisfy { [33, 34, 66, 67, 100].contains($0) }, "gaps: \(Set(gaps).sorted())")
        #expect(try ProbedVideo.decodeErrors(output) == "")
    }

    @Test func standardInputPlaysUntilItCloses() throws {
        let dir = try Project.scratchDirectory("file-stdin")
        let clip = try Self.clip(in: dir)
        let output = dir.appendingPathComponent("out.flv")
        let config = try Self.config(clip: "-", output: output, in: dir)
        // The shell supplies stdin; stdin's header cannot be read ahead, so --size must match it.
        let result = try ProcessRunner.run(
            "/bin/sh",
            ["-c", "exec \"$0\" run --config \"$1\" --size 320x180 --pace fast < \"$2\"",
             Project.camcastBinary.path, config.path, clip.path],
            timeout: 60)
        #expect(result.status == 0, "camcast failed: \(result.stderr)")
        #expect(try ProbedVideo.probe(output).decodedFrames == 30)
    }

    @Test func aMissingClipIsAConfigProblem() throws {
        let dir = try Project.scratchDirectory("file-missing")
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--source", "/nonexistent/clip.y4m", "--output", dir.appendingPathComponent("x.flv").path], timeout: 30)
        #expect(result.status == 78)
        #expect(result.stderr.contains("source.file"), "\(result.stderr)")
        #expect(result.stderr.contains("/nonexistent/clip.y4m"))
    }
}
