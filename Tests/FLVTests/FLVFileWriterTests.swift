import Foundation
import TestSupport
import Testing
@testable import FLV

@Suite struct FLVFileWriterTests {
    /// Encodes 15 frames (0.5 s at 30 fps) of ffmpeg's test pattern with x264 High profile and
    /// returns the Annex-B stream.
    static func encodeSampleH264(in directory: URL) throws -> [UInt8] {
        let output = directory.appendingPathComponent("sample.h264").path
        _ = try FFmpegTools.run("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-frames:v", "15",
            "-c:v", "libx264", "-profile:v", "high", "-bf", "0", "-g", "10", "-f", "h264", output,
        ])
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// Writes the sample as FLV the way the daemon will: metadata, sequence header, frames, EOS.
    /// Timestamps start at 1000 ms to show the duration is measured from the first frame.
    static func writeSampleFLV(to path: String, directory: URL) throws -> (frames: Int, tags: [FLVTag]) {
        let parsed = Fixtures.frames(from: Fixtures.annexBNALUnits(try encodeSampleH264(in: directory)))
        let sps = try #require(parsed.sps)
        let pps = try #require(parsed.pps)
        try #require(parsed.frames.count == 15)
        try #require(parsed.frames[0].isKeyframe)

        let muxer = FLVMuxer()
        let metadata = FLVMetadata(width: 640, height: 360, frameRate: 30, videoDataRate: 500,
                                   encoder: "camcast-test", fileSize: 0)
        var tags = [
            try muxer.metadataTag(metadata),
            try muxer.sequenceHeaderTag(AVCDecoderConfigurationRecord(sps: sps, pps: pps), timestamp: 1000),
        ]
        for (index, frame) in parsed.frames.enumerated() {
            let time = UInt32(1000 + index * 1000 / 30)
            tags.append(try muxer.videoTag(nalUnits: frame.nalUnits, isKeyframe: frame.isKeyframe, dts: time, pts: time))
        }
        tags.append(muxer.endOfSequenceTag(timestamp: tags.last!.timestamp))

        let writer = try FLVFileWriter(path: path)
        for tag in tags {
            try writer.write(tag)
        }
        try writer.close()
        return (parsed.frames.count, tags)
    }

    @Test func ffprobeAcceptsTheWrittenFile() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.flv").path
        _ = try Self.writeSampleFLV(to: path, directory: directory)

        // Fails on any complaint: a non-zero exit or a line on stderr.
        let probe = try FFmpegTools.run("ffprobe", [
            "-v", "error", "-show_entries", "format=duration:stream=codec_name,width,height", "-of", "json", path,
        ])
        let parsed = try JSONSerialization.jsonObject(with: probe)
        let json = try #require(parsed as? [String: Any], "ffprobe output is not a JSON object: \(String(decoding: probe, as: UTF8.self))")
        let streams = try #require(json["streams"] as? [[String: Any]])
        try #require(streams.count == 1)
        #expect(streams[0]["codec_name"] as? String == "h264")
        #expect(streams[0]["width"] as? Int == 640)
        #expect(streams[0]["height"] as? Int == 360)
        let format = try #require(json["format"] as? [String: Any])
        let durationText = try #require(format["duration"] as? String)
        let duration = try #require(Double(durationText))
        #expect(abs(duration - 0.5) < 0.02, "ffprobe duration \(duration), expected 0.5 s")

        // And every frame decodes without a single complaint.
        _ = try FFmpegTools.run("ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"])
    }

    @Test func closePatchesDurationAndFileSize() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.flv").path
        let written = try Self.writeSampleFLV(to: path, directory: directory)

        let file = try FLVReader.readFile(atPath: path)
        #expect(file.header == FLVHeader(hasAudio: false, hasVideo: true))
        #expect(file.tags.count == written.tags.count)
        #expect(Array(file.tags.dropFirst()) == Array(written.tags.dropFirst()))  // only metadata changed
        let metadata = try FLVMetadata(scriptDataBody: file.tags[0].body)
        // Last frame at 1000 + 14 × 33 = 1466 ms, first at 1000 ms, plus one 33.3 ms frame interval.
        #expect(abs(metadata.duration - (0.466 + 1.0 / 30)) < 1e-9)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(metadata.fileSize == size.map(Double.init))
    }

    @Test func writesHeaderAndPreviousTagSizeZeroOnCreation() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("empty.flv").path
        let writer = try FLVFileWriter(path: path)
        try writer.close()
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == [
            0x46, 0x4C, 0x56, 0x01, 0x01, 0x00, 0x00, 0x00, 0x09,  // header: FLV v1, video, DataOffset 9
            0x00, 0x00, 0x00, 0x00,                                // PreviousTagSize0
        ])
    }

    @Test func reportsOpenFailureWithErrnoAndPath() {
        let path = "/nonexistent-flv-dir/out.flv"
        #expect(throws: FLVError.io(operation: "open", path: path, errno: ENOENT)) { try FLVFileWriter(path: path) }
    }

    @Test func refusesUseAfterClose() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try FLVFileWriter(path: directory.appendingPathComponent("closed.flv").path)
        try writer.close()
        #expect(throws: FLVError.writerClosed) { try writer.write(FLVMuxer().endOfSequenceTag(timestamp: 0)) }
        #expect(throws: FLVError.writerClosed) { try writer.close() }
    }
}
