import FLV
import Media
import TestSupport
import Testing
@testable import Outputs

/// H.265 packets through the FLV muxer every FLV file and RTMP output uses: Enhanced RTMP v1
/// 'hvc1' tags, with the same keyframe-first rules as H.264.
@Suite("H.265 as Enhanced RTMP")
struct FLVPacketMuxerHEVCTests {
    static let metadata = try! FLVMuxer().metadataTag(
        FLVMetadata(width: 640, height: 360, frameRate: 30, videoDataRate: 500, encoder: "camcast", videoCodec: .fourCC(.hevc)))

    /// x265's Main-profile VPS, SPS and PPS for 640x360 (as in FLVTests' HEVCFixtures.main).
    static let configuration = DecoderConfiguration(parameterSets: [
        [
            0x40, 0x01, 0x0C, 0x01, 0xFF, 0xFF, 0x01, 0x60, 0x00, 0x00, 0x03, 0x00, 0x90, 0x00, 0x00,
            0x03, 0x00, 0x00, 0x03, 0x00, 0x3F, 0x92, 0x80, 0x90,
        ],
        [
            0x42, 0x01, 0x01, 0x01, 0x60, 0x00, 0x00, 0x03, 0x00, 0x90, 0x00, 0x00, 0x03, 0x00, 0x00,
            0x03, 0x00, 0x3F, 0xA0, 0x05, 0x02, 0x01, 0x69, 0x65, 0x92, 0xA4, 0x93, 0x2B, 0xC0, 0x5A,
            0x02, 0x00, 0x00, 0x03, 0x00, 0x02, 0x00, 0x00, 0x03, 0x00, 0x3C, 0x10,
        ],
        [0x44, 0x01, 0xC1, 0x72, 0xB4, 0x62, 0x40],
    ])

    /// Frame `number` of a stream with a keyframe every 10, 33 ms apart; `compositionTime` = pts − dts.
    static func frame(_ number: Int, compositionTime: Int64 = 0, configuration: DecoderConfiguration = configuration) -> MediaPacket {
        let keyframe = number % 10 == 0
        // NAL header: IDR_W_RADL (19) or TRAIL_R (1), temporal id 1; then the frame number.
        return MediaPacket(
            codec: .h265, decoderConfiguration: configuration, isKeyframe: keyframe, dts: Int64(number) * 33,
            pts: Int64(number) * 33 + compositionTime, captureTime: Int64(number) * 33,
            units: [[keyframe ? 0x26 : 0x02, 0x01, UInt8(number)]])
    }

    static func enhanced(_ tag: FLVTag) throws -> FLVExVideoTagBody {
        guard case .enhanced(let body) = try FLVVideoData(parsing: tag.body) else {
            throw FLVError.unsupportedVideoCodec(tag.body.first ?? 0)
        }
        return body
    }

    @Test("a stream starts with metadata, the hvc1 SequenceStart and the keyframe, at the keyframe's time")
    func streamStart() throws {
        var muxer = FLVPacketMuxer(metadata: Self.metadata)
        #expect(try muxer.tags(for: Self.frame(7)).isEmpty, "nothing before a keyframe")
        let start = try muxer.tags(for: Self.frame(10))
        #expect(start.map(\.type) == [.scriptData, .video, .video])
        #expect(start.map(\.timestamp) == [330, 330, 330])
        #expect(try FLVMetadata(scriptDataBody: start[0].body).videoCodec == .fourCC(.hevc))
        let sequenceStart = try Self.enhanced(start[1])
        #expect(sequenceStart.packetType == .sequenceStart && sequenceStart.fourCC == .hevc && sequenceStart.isKeyframe)
        let record = try HEVCDecoderConfigurationRecord(parsing: sequenceStart.data)
        #expect(record == (try HEVCDecoderConfigurationRecord(parameterSets: Self.configuration.parameterSets)))
        let keyframe = try Self.enhanced(start[2])
        #expect(keyframe.packetType == .codedFramesX && keyframe.isKeyframe)
        #expect(try FLVVideoTagBody.nalUnits(fromAVCC: keyframe.data) == [[0x26, 0x01, 10]])
        #expect(muxer.videoCodec == .h265)
    }

    @Test("pts = dts goes as CodedFramesX, any other composition time as CodedFrames with it")
    func compositionTimes() throws {
        var muxer = FLVPacketMuxer(metadata: Self.metadata)
        _ = try muxer.tags(for: Self.frame(0))
        let plain = try Self.enhanced(try #require(muxer.tags(for: Self.frame(1)).first))
        #expect(plain.packetType == .codedFramesX)
        #expect(!plain.isKeyframe)
        let reordered = try Self.enhanced(try #require(muxer.tags(for: Self.frame(2, compositionTime: 66)).first))
        #expect(reordered.packetType == .codedFrames)
        #expect(reordered.compositionTime == 66)
        #expect(throws: FLVError.compositionTimeOutOfRange(0x80_0000)) {
            try muxer.tags(for: Self.frame(3, compositionTime: 0x80_0000))
        }
    }

    @Test("a changed VPS/SPS/PPS goes out once as a new SequenceStart; a restart starts again at a keyframe")
    func changedConfigurationAndRestart() throws {
        var muxer = FLVPacketMuxer(metadata: Self.metadata)
        _ = try muxer.tags(for: Self.frame(0))
        var sets = Self.configuration.parameterSets
        sets[2] = [0x44, 0x01, 0xC1, 0x73, 0x18, 0x31, 0x08, 0x12]  // a PPS with other QP offsets
        let other = DecoderConfiguration(parameterSets: sets)
        let changed = try muxer.tags(for: Self.frame(1, configuration: other))
        #expect(changed.count == 2)
        let header = try Self.enhanced(changed[0])
        #expect(header.packetType == .sequenceStart)
        #expect(try HEVCDecoderConfigurationRecord(parsing: header.data).nalUnits(ofType: .pps) == [sets[2]])
        #expect(try muxer.tags(for: Self.frame(2, configuration: other)).count == 1)

        muxer.restart()
        #expect(try muxer.tags(for: Self.frame(3, configuration: other)).isEmpty)
        let again = try muxer.tags(for: Self.frame(20, configuration: other))
        #expect(again.map(\.timestamp) == [660, 660, 660])
        #expect(try Self.enhanced(again[1]).packetType == .sequenceStart)
    }

    @Test("the end of an H.265 stream is the hvc1 SequenceEnd")
    func endOfSequence() throws {
        var muxer = FLVPacketMuxer(metadata: Self.metadata)
        _ = try muxer.tags(for: Self.frame(0))
        let end = muxer.endOfSequence(at: 5000)
        #expect(end.body == [0x92, 0x68, 0x76, 0x63, 0x31])
        #expect(end.timestamp == 5000)
    }

    @Test("a switch between H.264 and H.265 ends the old codec's sequence before the new one starts")
    func codecSwitch() throws {
        var muxer = FLVPacketMuxer(metadata: Self.metadata)
        _ = try muxer.tags(for: FrameStream(gop: 10).packet(0))
        let switched = try muxer.tags(for: Self.frame(10))
        #expect(switched.count == 3)
        #expect(try FLVVideoData(parsing: switched[0].body) == .legacy(try FLVVideoTagBody(parsing: FLVMuxer().endOfSequenceTag(timestamp: 0).body)))
        #expect(try Self.enhanced(switched[1]).packetType == .sequenceStart)
        #expect(muxer.endOfSequence(at: 400).body.first == 0x92)
    }

    @Test("parameter sets that are not H.265 fail with the record's error, not a crash")
    func badParameterSets() {
        var muxer = FLVPacketMuxer(metadata: Self.metadata)
        let avcSets = FrameStream.configuration
        #expect(throws: FLVError.notAnHEVCParameterSet(expected: "VPS, SPS or PPS", nalUnitType: 51)) {
            try muxer.tags(for: Self.frame(0, configuration: avcSets))
        }
    }
}
