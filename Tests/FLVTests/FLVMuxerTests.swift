import Testing
@testable import FLV

@Suite struct FLVMuxerTests {
    let muxer = FLVMuxer()

    @Test func metadataTagIsScriptDataAtZero() throws {
        let metadata = FLVMetadata(width: 1280, height: 720, frameRate: 30, videoDataRate: 2500, encoder: "camcast")
        let tag = try muxer.metadataTag(metadata)
        #expect(tag.type == .scriptData)
        #expect(tag.timestamp == 0)
        #expect(tag.body == (try metadata.scriptDataBody()))
    }

    @Test func sequenceHeaderTagCarriesTheRecord() throws {
        let record = try AVCDecoderConfigurationRecord(sps: Fixtures.highSPS, pps: Fixtures.highPPS)
        let tag = try muxer.sequenceHeaderTag(record, timestamp: 1000)
        #expect(tag.type == .video)
        #expect(tag.timestamp == 1000)
        #expect(Array(tag.body.prefix(5)) == [
            0x17,              // keyframe, AVC
            0x00,              // AVCPacketType 0: sequence header
            0x00, 0x00, 0x00,  // CompositionTime 0
        ])
        #expect(try AVCDecoderConfigurationRecord(parsing: tag.body.dropFirst(5)) == record)
    }

    @Test func encodesGoldenVideoTag() throws {
        let tag = try muxer.videoTag(nalUnits: [[0x06, 0x01], [0x65, 0x88]], isKeyframe: true, dts: 0x0100_0000, pts: 0x0100_0021)
        #expect(tag.encoded() == [
            0x09,                    // TagType 9 (video)
            0x00, 0x00, 0x11,        // DataSize 17 = 5 + 2 × (4 + 2)
            0x00, 0x00, 0x00,        // Timestamp: low 24 bits of dts 0x01000000
            0x01,                    // TimestampExtended: dts is past 0xFFFFFF ms (~4.66 h)
            0x00, 0x00, 0x00,        // StreamID 0
            0x17,                    // keyframe, AVC
            0x01,                    // AVCPacketType 1: NALU
            0x00, 0x00, 0x21,        // CompositionTime = pts − dts = 33
            0x00, 0x00, 0x00, 0x02,  // NAL length 2
            0x06, 0x01,              // SEI
            0x00, 0x00, 0x00, 0x02,  // NAL length 2
            0x65, 0x88,              // IDR slice
            0x00, 0x00, 0x00, 0x1C,  // PreviousTagSize 28 = 11 + 17
        ])
    }

    @Test func interFrameWithoutReorderingHasZeroCompositionTime() throws {
        let tag = try muxer.videoTag(nalUnits: [[0x41, 0x9A]], isKeyframe: false, dts: 40, pts: 40)
        let body = try FLVVideoTagBody(parsing: tag.body)
        #expect(body.frameType == .interFrame)
        #expect(body.compositionTime == 0)
        #expect(try FLVVideoTagBody.nalUnits(fromAVCC: body.data) == [[0x41, 0x9A]])
    }

    @Test func compositionTimeMayBeNegativeButMustFit() throws {
        let tag = try muxer.videoTag(nalUnits: [[0x41]], isKeyframe: false, dts: 100, pts: 67)
        #expect(try FLVVideoTagBody(parsing: tag.body).compositionTime == -33)
        #expect(throws: FLVError.compositionTimeOutOfRange(0x80_0000)) {
            try muxer.videoTag(nalUnits: [[0x41]], isKeyframe: false, dts: 0, pts: 0x80_0000)
        }
        #expect(throws: FLVError.compositionTimeOutOfRange(-Int64(UInt32.max))) {
            try muxer.videoTag(nalUnits: [[0x41]], isKeyframe: false, dts: .max, pts: 0)
        }
    }

    @Test func endOfSequenceTag() {
        let tag = muxer.endOfSequenceTag(timestamp: 5000)
        #expect(tag.type == .video)
        #expect(tag.timestamp == 5000)
        #expect(tag.body == [
            0x17,              // keyframe, AVC
            0x02,              // AVCPacketType 2: end of sequence
            0x00, 0x00, 0x00,  // CompositionTime 0, and no data
        ])
    }
}
