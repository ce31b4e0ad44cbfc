import Foundation
import TestSupport
import Testing
@testable import FLV

/// AAC frames from ffmpeg's encoder, muxed into FLV audio tags beside H.264 by our muxer, judged by
/// ffprobe and ffmpeg: the far end's view of the audio tags, without the daemon.
@Suite struct FLVAudioInteropTests {
    /// One second of a 1 kHz sine as AAC-LC 48 kHz mono in ADTS, split into raw frames.
    static func encodeSampleAAC(in directory: URL) throws -> [[UInt8]] {
        let output = directory.appendingPathComponent("sample.aac").path
        _ = try FFmpegTools.run("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=1",
            "-ac", "1", "-c:a", "aac", "-b:a", "128k", "-f", "adts", output,
        ])
        return try Self.adtsFrames([UInt8](Data(contentsOf: URL(fileURLWithPath: output))))
    }

    /// Raw AAC frames from an ADTS stream (ISO/IEC 14496-3 §1.A.2: a 7-byte header without CRC,
    /// 9 with; aac_frame_length, 13 bits at bit 30, counts the header).
    static func adtsFrames(_ stream: [UInt8]) throws -> [[UInt8]] {
        var frames: [[UInt8]] = []
        var index = 0
        while index + 7 <= stream.count {
            try #require(stream[index] == 0xFF && stream[index + 1] & 0xF0 == 0xF0, "no ADTS sync at \(index)")
            let headerSize = stream[index + 1] & 0x01 == 1 ? 7 : 9
            let length = Int(stream[index + 3] & 0x03) << 11 | Int(stream[index + 4]) << 3 | Int(stream[index + 5]) >> 5
            try #require(length > headerSize && index + length <= stream.count)
            frames.append(Array(stream[index + headerSize..<index + length]))
            index += length
        }
        return frames
    }

    /// Metadata, both sequence headers, then video and audio tags merged by timestamp.
    static func writeFile(to path: String, directory: URL) throws -> [FLVTag] {
        let video = Fixtures.frames(from: Fixtures.annexBNALUnits(try FLVFileWriterTests.encodeSampleH264(in: directory)))
        let audio = try encodeSampleAAC(in: directory)
        let muxer = FLVMuxer()
        let config = try AudioSpecificConfig(sampleRate: 48000, channels: 1)
        var media: [FLVTag] = []
        for (index, frame) in video.frames.enumerated() {
            let time = UInt32(index * 1000 / 30)
            media.append(try muxer.videoTag(nalUnits: frame.nalUnits, isKeyframe: frame.isKeyframe, dts: time, pts: time))
        }
        for (index, frame) in audio.prefix(24).enumerated() {  // 24 × 1024 / 48 kHz = 0.512 s
            media.append(try muxer.audioTag(aacFrame: frame, timestamp: UInt32(index * 1024 * 1000 / 48000)))
        }
        // Stable: at equal times video (added first) goes first.
        media = media.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }.map(\.element)
        let metadata = FLVMetadata(
            width: 640, height: 360, frameRate: 30, videoDataRate: 500, encoder: "camcast-test",
            audio: FLVMetadata.Audio(dataRate: 128, sampleRate: 48000, isStereo: false))
        let tags = [
            try muxer.metadataTag(metadata),
            try muxer.sequenceHeaderTag(AVCDecoderConfigurationRecord(sps: try #require(video.sps), pps: try #require(video.pps)), timestamp: 0),
            try muxer.audioSequenceHeaderTag(config, timestamp: 0),
        ] + media
        let writer = try FLVFileWriter(path: path, header: FLVHeader(hasAudio: true, hasVideo: true))
        for tag in tags { try writer.write(tag) }
        try writer.close()
        return tags
    }

    @Test func ffprobeReadsTheAACTrack() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("av.flv").path
        let written = try Self.writeFile(to: path, directory: directory)

        let probe = try FFmpegTools.run("ffprobe", [
            "-v", "error", "-select_streams", "a", "-count_packets",
            "-show_entries", "stream=codec_name,profile,sample_rate,channels,nb_read_packets", "-of", "json", path,
        ])
        let json = try #require(try JSONSerialization.jsonObject(with: probe) as? [String: Any])
        let stream = try #require((json["streams"] as? [[String: Any]])?.first, "no audio stream")
        #expect(stream["codec_name"] as? String == "aac")
        #expect(stream["profile"] as? String == "LC")
        #expect(stream["sample_rate"] as? String == "48000")
        #expect(stream["channels"] as? Int == 1)
        #expect(stream["nb_read_packets"] as? String == "24")
        // Both tracks decode without a single error.
        _ = try FFmpegTools.run("ffmpeg", ["-v", "error", "-xerror", "-i", path, "-f", "null", "-"])

        // Our reader, a byte at a time, gives back the same tags, and the audio bodies parse.
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var reader = FLVReader()
        var read: [FLVTag] = []
        for byte in bytes { read += try reader.feed(CollectionOfOne(byte)) }
        try reader.finish()
        // All but onMetaData, whose duration the writer patched on close.
        #expect(read.count == written.count)
        #expect(read.dropFirst().elementsEqual(written.dropFirst()), "the tags read back differ from those written")
        #expect(reader.header == FLVHeader(hasAudio: true, hasVideo: true))
        let audio = try read.filter { $0.type == .audio }.map { try FLVAudioTagBody(parsing: $0.body) }
        #expect(audio.count == 25)
        #expect(audio.first?.aacPacketType == .sequenceHeader)
        #expect(try AudioSpecificConfig(parsing: audio[0].data) == AudioSpecificConfig(sampleRate: 48000, channels: 1))
        #expect(audio.dropFirst().allSatisfy { $0.aacPacketType == .raw && $0.flags == 0xAF })
    }
}
