import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// File sources as a user of ffmpeg expects them, through the binary: camera recordings (MJPEG,
/// raw YUYV) replayed, a y4m named pipe, a writer that stalls, a clip without frames. Outputs are
/// checked with ffprobe.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct ReplaySourceTests {
    static func ffmpeg(_ arguments: [String]) throws {
        let made = try FFmpegTools.result("ffmpeg", ["-nostdin", "-v", "error", "-y"] + arguments)
        guard made.status == 0 else { throw HarnessError("ffmpeg failed: \(made.stderr)") }
    }

    static let testsrc = ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-frames:v", "30"]

    /// An MJPEG recording as ffmpeg (and a UVC camera) writes it: its size comes from the JPEG
    /// headers (not the 1280x720 default), its rate from --fps; one frame corrupted in the middle
    /// is dropped and the rest arrive.
    @Test func anMJPEGRecordingPlaysWithItsOwnSizeAndDropsABadFrame() throws {
        let dir = try Project.scratchDirectory("replay-mjpeg")
        let clip = dir.appendingPathComponent("camera.mjpeg")
        try Self.ffmpeg(Self.testsrc + ["-pix_fmt", "yuvj422p", "-f", "mjpeg", clip.path])
        // Overwrite bytes inside the entropy-coded data of the middle frame.
        var bytes = [UInt8](try Data(contentsOf: clip))
        let middle = bytes.count / 2
        for index in middle..<(middle + 200) { bytes[index] = 0xFF }
        try Data(bytes).write(to: clip)
        let output = dir.appendingPathComponent("out.flv")
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--source", clip.path, "--fps", "30", "--pace", "fast", "--output", output.path, "--duration", "1"],
            timeout: 60)
        #expect(result.status == 0, "camcast failed: \(result.stderr)")
        #expect(result.stderr.contains("dropped a bad MJPEG frame"), "\(result.stderr)")
        let video = try ProbedVideo.probe(output)
        #expect(video.codec == "h264" && video.width == 320 && video.height == 180)
        // 30 slots: the looped file fills the second; one or two of them hold the broken frame.
        #expect((27...29).contains(video.decodedFrames), "\(video.decodedFrames) frames")
        #expect(try ProbedVideo.decodeErrors(output) == "")
    }

    @Test func rawYUYVFramesPlayAtTheGivenSizeAndRate() throws {
        let dir = try Project.scratchDirectory("replay-yuyv")
        let clip = dir.appendingPathComponent("camera.raw")
        try Self.ffmpeg(Self.testsrc + ["-pix_fmt", "yuyv422", "-f", "rawvideo", clip.path])
        let output = dir.appendingPathComponent("out.flv")
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--config", try Self.playOnce(clip, pixelFormat: "YUYV", output: output, in: dir).path,
             "--size", "320x180", "--fps", "30", "--pace", "fast"],
            timeout: 60)
        #expect(result.status == 0, "camcast failed: \(result.stderr)")
        #expect(result.stderr.contains("reason=sourceEnded"), "\(result.stderr)")
        let video = try ProbedVideo.probe(output)
        #expect(video.width == 320 && video.height == 180 && video.decodedFrames == 30)
        // Each YUYV frame became the encoder's NV12 in the conversion stage, before the encoder, in
        // one buffer reused for all 30 (the stop summary's conversion line).
        let conversion = try #require(
            result.stderr.split(separator: "\n").map(String.init).first { $0.contains(" info conversion ") }, "\(result.stderr)")
        #expect(CamcastLog.value("converted", in: conversion) == "30" && CamcastLog.value("buffers", in: conversion) == "1", "\(conversion)")
    }

    /// A y4m clip at the stream's size is already the encoder's picture (I420): it goes through the
    /// conversion stage untouched, no frame converted and no buffer made.
    @Test func anI420ClipAtTheStreamsSizeIsNotConverted() throws {
        let dir = try Project.scratchDirectory("replay-i420")
        let clip = dir.appendingPathComponent("clip.y4m")
        try Self.ffmpeg(Self.testsrc + ["-pix_fmt", "yuv420p", clip.path])
        let output = dir.appendingPathComponent("out.flv")
        let result = try ProcessRunner.run(
            Project.camcastBinary.path, ["run", "--source", clip.path, "--pace", "fast", "--output", output.path, "--duration", "1"],
            timeout: 60)
        #expect(result.status == 0, "camcast failed: \(result.stderr)")
        let conversion = try #require(
            result.stderr.split(separator: "\n").map(String.init).first { $0.contains(" info conversion ") }, "\(result.stderr)")
        #expect(CamcastLog.value("frames", in: conversion).flatMap(Int.init).map { $0 >= 30 } == true, "\(conversion)")
        #expect(CamcastLog.value("converted", in: conversion) == "0" && CamcastLog.value("buffers", in: conversion) == "0", "\(conversion)")
    }

    /// A raw file whose length does not fit the size and format given is a configuration error.
    @Test func aRawFileOfTheWrongSizeIsAConfigProblem() throws {
        let dir = try Project.scratchDirectory("replay-raw-size")
        let clip = dir.appendingPathComponent("camera.raw")
        try Self.ffmpeg(Self.testsrc + ["-pix_fmt", "yuyv422", "-f", "rawvideo", clip.path])
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--source", clip.path, "--pixel-format", "YUYV", "--size", "320x240",
             "--output", dir.appendingPathComponent("x.flv").path],
            timeout: 30)
        #expect(result.status == 78)
        #expect(result.stderr.contains("not a whole number of 320x240 YUYV frames"), "\(result.stderr)")
    }

    /// A config that plays `clip` once (looping is the default); a config file is checked on its
    /// own, so a raw file's format is in it too.
    static func playOnce(_ clip: URL, pixelFormat: String, output: URL, in dir: URL) throws -> URL {
        let config = dir.appendingPathComponent("once.yaml")
        try "source:\n  type: file\n  file: \"\(clip.path)\"\n  pixel_format: \(pixelFormat)\n  loop: false\noutputs:\n  - path: \(output.path)\n"
            .write(to: config, atomically: true, encoding: .utf8)
        return config
    }

    /// A header and no frames: an error, not exit 0 and an empty FLV.
    @Test func aY4MClipWithoutFramesIsAnError() throws {
        let dir = try Project.scratchDirectory("replay-empty-y4m")
        let clip = dir.appendingPathComponent("empty.y4m")
        try "YUV4MPEG2 W320 H180 F30:1 Ip A1:1 C420jpeg\n".write(to: clip, atomically: true, encoding: .utf8)
        let output = dir.appendingPathComponent("out.flv")
        let result = try ProcessRunner.run(
            Project.camcastBinary.path, ["run", "--source", clip.path, "--output", output.path], timeout: 30)
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr.contains("y4m stream has a header but no frames"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    /// A named pipe: its header is read once (the size comes from it), the frames all arrive; when
    /// the writer then goes quiet without closing, the stall is logged, and SIGTERM ends the run
    /// at once instead of waiting for the writer.
    @Test func aY4MNamedPipePlaysAndAStalledWriterDoesNotHoldUpAStop() throws {
        let dir = try Project.scratchDirectory("replay-fifo")
        let clip = dir.appendingPathComponent("clip.y4m")
        try Self.ffmpeg(Self.testsrc + ["-pix_fmt", "yuv420p", clip.path])
        let fifo = dir.appendingPathComponent("live.y4m")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        // The writer sends the clip, then holds the pipe open without writing (exec keeps fd 3).
        let writer = try ProcessRunner.start(
            "/bin/sh", ["-c", "exec 3>\"$0\"; cat \"$1\" >&3; exec sleep 60", fifo.path, clip.path])
        defer {
            writer.signal(SIGKILL)
            _ = try? writer.wait(timeout: 5)
        }
        let output = dir.appendingPathComponent("out.flv")
        let camcast = try Daemon.start(["run", "--source", fifo.path, "--output", output.path])
        #expect(Daemon.waitForLog(camcast, "input stalled", timeout: 30), "\(camcast.stderrSoFar)")
        camcast.signal(SIGTERM)
        let stopping = Date()
        let result = try camcast.wait(timeout: 20)
        // Before the fix the stop waited for the writer (60 s). A loaded machine keeps this margin.
        #expect(Date().timeIntervalSince(stopping) < 8, "took \(Date().timeIntervalSince(stopping)) s")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("reason=shutdownRequested"), "\(result.stderr)")
        let video = try ProbedVideo.probe(output)
        #expect(video.width == 320 && video.height == 180)
        // Every frame of the clip encoded or, on a loaded machine, skipped at the source or dropped
        // at the encoder's full queue (counted).
        let encoded = try #require(CamcastLog.stopCount("frames", in: result.stderr), "no stop summary\n\(result.stderr)")
        let unencoded = try #require(CamcastLog.unencodedSlots(in: result.stderr))
        #expect(video.decodedFrames == encoded && encoded + unencoded == 30, "\(video.decodedFrames) decoded, \(encoded) encoded, \(unencoded) skipped or dropped at the encoder of 30")
    }
}
