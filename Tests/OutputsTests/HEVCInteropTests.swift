import FLV
import Foundation
import Media
import Testing
import TestSupport
@testable import Outputs

/// H.265 through Camcast's FLV muxer, judged by tools nobody here wrote: a real clip from
/// Debian's ffmpeg 5.1 with libx265, muxed by FLVPacketMuxer into an Enhanced RTMP FLV file that
/// FFmpeg 8 (PyAV) must decode whole; and the HEVCDecoderConfigurationRecord compared byte for
/// byte with the one FFmpeg 8's flvenc writes for the same clip.
@Suite(.serialized, .enabled(if: PyAV.interopTestsEnabled, Comment(rawValue: PyAV.interopSkipReason)))
struct HEVCInteropTests {
    static let frameCount = 150
    static let keyframeInterval = 60

    /// The clip as a camera's encoder would hand it over: parameter sets apart, access units.
    struct Clip: Sendable {
        var file: URL
        var parameterSets: [[UInt8]]
        var accessUnits: [(units: [[UInt8]], isKeyframe: Bool)]
    }

    /// 150 frames of 640x360 at 30 fps, closed GOP, an IDR every 60 frames, no B-frames (as
    /// Camcast's x265 session is set up), no options SEI (`info=0`).
    static let clip: Result<Clip, any Error> = Result { try makeClip(width: 640, height: 360, frames: frameCount) }
    /// Another 60 frames at 320x180: other SPS, so a stream that goes on with it needs a new
    /// SequenceStart.
    static let smallClip: Result<Clip, any Error> = Result { try makeClip(width: 320, height: 180, frames: 60) }

    static func makeClip(width: Int, height: Int, frames: Int) throws -> Clip {
        let directory = try Project.scratchDirectory("hevc-interop")
        let file = directory.appendingPathComponent("clip.h265")
        _ = try FFmpegTools.run("ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=30", "-frames:v", "\(frames)",
            "-pix_fmt", "yuv420p", "-c:v", "libx265", "-preset", "ultrafast",
            "-x265-params",
            "info=0:log-level=error:keyint=\(keyframeInterval):min-keyint=\(keyframeInterval):scenecut=0:open-gop=0:bframes=0",
            "-f", "hevc", file.path,
        ])
        return try split(annexB: [UInt8](Data(contentsOf: file)), file: file)
    }

    /// Splits an Annex-B H.265 stream at its start codes and groups it into access units. The NAL
    /// header is two bytes, type = (byte0 >> 1) & 0x3F: VPS 32, SPS 33, PPS 34 go to the
    /// configuration (first of each), AUD 35 is dropped, a prefix SEI 39 goes with the picture after
    /// it, a suffix SEI 40 with the one before; x265 writes one slice per picture, so each VCL NAL
    /// unit (0…31) ends an access unit, a keyframe when it is IDR (19, 20) or CRA (21).
    static func split(annexB stream: [UInt8], file: URL) throws -> Clip {
        var units: [[UInt8]] = []
        var start: Int?
        var index = 0
        while index + 2 < stream.count {
            if stream[index] == 0, stream[index + 1] == 0, stream[index + 2] == 1 {
                if let start { units.append(trimmed(stream[start..<index])) }
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        if let start { units.append(trimmed(stream[start...])) }

        var sets: [UInt8: [UInt8]] = [:]
        var pending: [[UInt8]] = []
        var accessUnits: [(units: [[UInt8]], isKeyframe: Bool)] = []
        for unit in units where unit.count >= 2 {
            let type = unit[0] >> 1 & 0x3F
            switch type {
            case 32, 33, 34: sets[type] = sets[type] ?? unit
            case 35: continue
            case 40 where !accessUnits.isEmpty: accessUnits[accessUnits.count - 1].units.append(unit)
            case 0...31:
                accessUnits.append((pending + [unit], (19...21).contains(type)))
                pending = []
            default: pending.append(unit)
            }
        }
        guard let vps = sets[32], let sps = sets[33], let pps = sets[34] else {
            throw HarnessError("\(file.path): no VPS/SPS/PPS among \(units.count) NAL units")
        }
        return Clip(file: file, parameterSets: [vps, sps, pps], accessUnits: accessUnits)
    }

    /// A NAL unit without the zero byte a four-byte start code leaves at the end of the one before.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[end - 1] == 0 { end -= 1 }
        return Array(bytes[bytes.startIndex..<end])
    }

    /// Frame i's decode time (30 fps in milliseconds) and presentation time: odd frames are
    /// shown 10 ms late, so both CodedFramesX (pts = dts) and CodedFrames (with a composition time)
    /// are on the wire, and FFmpeg must read the SI24 to get the times right.
    static func times(_ index: Int) -> (dts: Int64, pts: Int64) {
        let dts = Int64((Double(index) * 1000 / 30).rounded())
        return (dts, dts + (index % 2 == 1 ? 10 : 0))
    }

    /// Muxes the clips one after the other through one FLVPacketMuxer into an FLV file, frame
    /// numbers (and so times) running on across them, and closes it with the end of sequence.
    static func mux(_ clips: [Clip], to path: String) throws {
        let metadata = try FLVMuxer().metadataTag(
            FLVMetadata(width: 640, height: 360, frameRate: 30, videoDataRate: 500, encoder: "camcast", videoCodec: .fourCC(.hevc)))
        var muxer = FLVPacketMuxer(metadata: metadata)
        let writer = try FLVFileWriter(path: path)
        var index = 0
        for clip in clips {
            let configuration = DecoderConfiguration(parameterSets: clip.parameterSets)
            for unit in clip.accessUnits {
                let (dts, pts) = Self.times(index)
                let packet = MediaPacket(
                    codec: .h265, decoderConfiguration: configuration, isKeyframe: unit.isKeyframe, dts: dts, pts: pts,
                    captureTime: dts, units: unit.units)
                for tag in try muxer.tags(for: packet) { try writer.write(tag) }
                index += 1
            }
        }
        try writer.write(muxer.endOfSequence(at: Self.times(index - 1).dts))
        try writer.close()
    }

    @Test("FFmpeg 8 decodes Camcast's hvc1 FLV: 150 HEVC frames, a keyframe first, every 60 frames, no errors")
    func ffmpeg8DecodesTheMuxedFile() throws {
        let clip = try Self.clip.get()
        try #require(clip.accessUnits.count == Self.frameCount)
        let path = clip.file.deletingPathExtension().appendingPathExtension("flv").path
        try Self.mux([clip], to: path)

        let decoded = try PyAV.decodeVideo(path)
        #expect(decoded.errors == [])
        #expect(decoded.codec == "hevc")
        #expect((decoded.width, decoded.height) == (640, 360))
        #expect(decoded.frames.count == Self.frameCount)
        #expect(decoded.frames.first?.isKeyframe == true)
        #expect(decoded.frames.compactMap(\.pts) == (0..<Self.frameCount).map { Int(Self.times($0).pts) })
        let keyframes = decoded.packets.indices.filter { decoded.packets[$0].isKeyframe }
        #expect(keyframes == Array(stride(from: 0, to: Self.frameCount, by: Self.keyframeInterval)))
        // What flvdec took from the SequenceStart is the record Camcast built.
        #expect(decoded.extradata == (try HEVCDecoderConfigurationRecord(parameterSets: clip.parameterSets)).encoded())
    }

    @Test("a new SequenceStart mid-stream: FFmpeg 8 decodes on at the new size without an error")
    func ffmpeg8FollowsAChangedConfiguration() throws {
        let first = try Self.clip.get()
        let second = try Self.smallClip.get()
        try #require(first.parameterSets != second.parameterSets)
        let path = second.file.deletingPathExtension().appendingPathExtension("switch.flv").path
        try Self.mux([first, second], to: path)
        let sequenceStarts = try FLVReader.readFile(atPath: path).tags.filter { $0.type == .video }
            .filter { try $0.videoData().isSequenceHeader }
        #expect(sequenceStarts.map(\.timestamp) == [0, UInt32(Self.times(Self.frameCount).dts)])

        let decoded = try PyAV.decodeVideo(path)
        #expect(decoded.errors == [])
        let total = Self.frameCount + second.accessUnits.count
        #expect(decoded.frames.count == total)
        #expect(decoded.frames.prefix(Self.frameCount).allSatisfy { ($0.width, $0.height) == (640, 360) })
        #expect(decoded.frames.dropFirst(Self.frameCount).allSatisfy { ($0.width, $0.height) == (320, 180) })
        #expect(decoded.frames.compactMap(\.pts) == (0..<total).map { Int(Self.times($0).pts) })
    }

    /// FFmpeg 8's flvenc writes hvc1 E-RTMP: remux the same clip with it (`-c copy -f flv`, through
    /// PyAV) and take its SequenceStart's record. FFmpeg's ff_isom_write_hvcc (libavformat/hevc.c)
    /// reads the same VPS/SPS/PPS fields Camcast does and sets the rest to fixed values Camcast uses
    /// too: avgFrameRate 0 and constantFrameRate 0 ("unspecified"), lengthSizeMinusOne 3,
    /// array_completeness 0 (flvenc passes ps_array_completeness = 0), parallelismType 0 while
    /// min_spatial_segmentation_idc is 0 (x265's SPS has no bitstream restriction). No field differs.
    @Test("the HEVCDecoderConfigurationRecord is byte for byte the one FFmpeg 8's flvenc writes")
    func recordMatchesFFmpeg8() throws {
        let clip = try Self.clip.get()
        let remuxed = clip.file.deletingPathExtension().appendingPathExtension("ffmpeg8.flv").path
        _ = try PyAV.run(Self.remuxScript, [clip.file.path, remuxed])
        let tags = try FLVReader.readFile(atPath: remuxed).tags.filter { $0.type == .video }
        let sequenceStart = try #require(try tags.lazy.map { tag throws(FLVError) in try FLVVideoData(parsing: tag.body) }
            .first { $0.isSequenceHeader })
        guard case .enhanced(let body) = sequenceStart else {
            Issue.record("FFmpeg 8 wrote a legacy sequence header: \(sequenceStart)")
            return
        }
        #expect(body.fourCC == .hevc)
        let ours = try HEVCDecoderConfigurationRecord(parameterSets: clip.parameterSets)
        #expect(ours.encoded() == body.data)
        #expect(ours == (try HEVCDecoderConfigurationRecord(parsing: body.data)))
    }

    /// `ffmpeg -i clip.h265 -c copy -f flv out.flv` in PyAV: a raw .h265 has no timestamps, so each
    /// packet gets 30 fps ones.
    static let remuxScript = #"""
        import sys
        from fractions import Fraction
        import av
        source, target = sys.argv[1], sys.argv[2]
        with av.open(source) as inp, av.open(target, "w", format="flv") as out:
            stream = out.add_stream_from_template(inp.streams.video[0])
            index = 0
            for packet in inp.demux(inp.streams.video[0]):
                if packet.size == 0:
                    continue
                packet.stream = stream
                packet.time_base = Fraction(1, 1000)
                packet.pts = packet.dts = round(index * 1000 / 30)
                index += 1
                out.mux(packet)
        """#
}
