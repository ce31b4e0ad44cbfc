import Testing
@testable import FLV

@Suite struct FLVExVideoTagBodyTests {
    @Test func encodesGoldenSequenceStart() throws {
        let record = try HEVCDecoderConfigurationRecord(parameterSets: HEVCFixtures.main.parameterSets)
        let body = try FLVExVideoTagBody(frameType: .keyframe, packetType: .sequenceStart, fourCC: .hevc, data: record.encoded())
        let header: [UInt8] = [
            0x90,                    // IsExHeader 1 | FrameType 1 (keyframe) | PacketType 0 (SequenceStart)
            0x68, 0x76, 0x63, 0x31,  // FourCC 'hvc1'
        ]  // no CompositionTime: only CodedFrames carries one
        #expect(body.encoded() == header + HEVCFixtures.main.ffmpegRecord)
        #expect(try FLVExVideoTagBody(parsing: body.encoded()) == body)
    }

    @Test func encodesGoldenCodedFramesWithCompositionTime() throws {
        let body = try FLVExVideoTagBody.codedFrame(isKeyframe: false, compositionTime: 66, data: [0x00, 0x00, 0x00, 0x02, 0x02, 0x01])
        let bytes: [UInt8] = [
            0xA1,                    // IsExHeader 1 | FrameType 2 (inter frame) | PacketType 1 (CodedFrames)
            0x68, 0x76, 0x63, 0x31,  // FourCC 'hvc1'
            0x00, 0x00, 0x42,        // CompositionTime 66 ms
            0x00, 0x00, 0x00, 0x02,  // NAL length 2
            0x02, 0x01,              // NAL unit header: TRAIL_R (type 1), layer 0, temporal id 1
        ]
        #expect(body.packetType == .codedFrames)
        #expect(body.encoded() == bytes)
        #expect(try FLVExVideoTagBody(parsing: bytes) == body)
    }

    /// A composition time of 0 goes as CodedFramesX, three bytes shorter, as FFmpeg's flvenc
    /// writes every frame of a stream without reordering.
    @Test func encodesGoldenCodedFramesXWhenCompositionTimeIsZero() throws {
        let body = try FLVExVideoTagBody.codedFrame(isKeyframe: true, compositionTime: 0, data: [0x00, 0x00, 0x00, 0x02, 0x26, 0x01])
        let bytes: [UInt8] = [
            0x93,                    // IsExHeader 1 | FrameType 1 (keyframe) | PacketType 3 (CodedFramesX)
            0x68, 0x76, 0x63, 0x31,  // FourCC 'hvc1'
            0x00, 0x00, 0x00, 0x02,  // NAL length 2 (no CompositionTime field)
            0x26, 0x01,              // NAL unit header: IDR_W_RADL (type 19)
        ]
        #expect(body.packetType == .codedFramesX)
        #expect(body.encoded() == bytes)
        #expect(try FLVExVideoTagBody(parsing: bytes) == body)
    }

    @Test func encodesGoldenSequenceEnd() throws {
        let tag = FLVMuxer().sequenceEndTag(timestamp: 5000)
        #expect(tag.body == [
            0x92,                    // IsExHeader 1 | FrameType 1 | PacketType 2 (SequenceEnd)
            0x68, 0x76, 0x63, 0x31,  // FourCC 'hvc1'
        ])
        #expect(tag.timestamp == 5000)
        let parsed = try FLVExVideoTagBody(parsing: tag.body)
        #expect(parsed.packetType == .sequenceEnd)
        #expect(parsed.data.isEmpty)
    }

    /// FFmpeg 8 writes a PacketTypeMetadata tag ("colorInfo") after the SequenceStart, with frame
    /// type bits 5; the spec says to ignore them, so the parse keeps no frame type.
    @Test func parsesFFmpegsColorInfoMetadata() throws {
        let bytes: [UInt8] = [
            0xD4,                    // IsExHeader 1 | FrameType bits 5 (ignored) | PacketType 4 (Metadata)
            0x68, 0x76, 0x63, 0x31,  // FourCC 'hvc1'
            0x02, 0x00, 0x09, 0x63, 0x6F, 0x6C, 0x6F, 0x72, 0x49, 0x6E, 0x66, 0x6F,  // AMF0 string "colorInfo"
            0x03, 0x00, 0x0B, 0x63, 0x6F, 0x6C, 0x6F, 0x72, 0x43, 0x6F, 0x6E, 0x66, 0x69, 0x67,  // object, key "colorConfig"
            0x03, 0x00, 0x00, 0x09,  // empty object
            0x00, 0x00, 0x09,        // object end
        ]
        let body = try FLVExVideoTagBody(parsing: bytes)
        #expect(body.packetType == .metadata)
        #expect(body.frameType == nil)
        var decoder = AMF0Decoder(body.data)
        #expect(try decoder.decode() == .string("colorInfo"))
        #expect(try decoder.decode() == .object([AMF0Property("colorConfig", .object([]))]))
        // Built again, it round-trips with the frame type bits cleared.
        let rebuilt = try FLVExVideoTagBody(frameType: .commandFrame, packetType: .metadata, fourCC: .hevc, data: body.data)
        #expect(rebuilt.encoded() == [0x84] + bytes.dropFirst())
        #expect(try FLVExVideoTagBody(parsing: rebuilt.encoded()) == rebuilt)
    }

    @Test(arguments: [Int32(-0x80_0000), -1, 1, 33, 0x7F_FFFF])
    func compositionTimeRoundTrips(compositionTime: Int32) throws {
        let body = try FLVExVideoTagBody.codedFrame(isKeyframe: false, compositionTime: compositionTime, data: [])
        #expect(try FLVExVideoTagBody(parsing: body.encoded()).compositionTime == compositionTime)
    }

    @Test func rejectsCompositionTimesTheWireCannotCarry() {
        #expect(throws: FLVError.compositionTimeOutOfRange(0x80_0000)) {
            try FLVExVideoTagBody.codedFrame(isKeyframe: false, compositionTime: 0x80_0000, data: [])
        }
        #expect(throws: FLVError.compositionTimeOutOfRange(33)) {
            try FLVExVideoTagBody(frameType: .interFrame, packetType: .codedFramesX, fourCC: .hevc, compositionTime: 33, data: [])
        }
        // AV1 CodedFrames have no CompositionTime field.
        #expect(throws: FLVError.compositionTimeOutOfRange(33)) {
            try FLVExVideoTagBody(frameType: .interFrame, packetType: .codedFrames, fourCC: .av1, compositionTime: 33, data: [])
        }
        #expect(throws: FLVError.compositionTimeOutOfRange(Int64(Int32.max) + 1)) {
            try FLVMuxer().hevcVideoTag(nalUnits: [], isKeyframe: false, dts: 0, compositionTime: Int64(Int32.max) + 1)
        }
    }

    @Test func av1AndVP9CodedFramesHaveNoCompositionTime() throws {
        let bytes: [UInt8] = [0xA1, 0x61, 0x76, 0x30, 0x31, 0x12, 0x00]  // inter, CodedFrames, 'av01', an OBU
        let body = try FLVExVideoTagBody(parsing: bytes)
        #expect(body.fourCC == .av1)
        #expect(body.data == [0x12, 0x00])
        #expect(body.encoded() == bytes)
    }

    /// "Logic must gracefully fail if … important signaling/flags are not understood."
    @Test func rejectsWhatE_RTMPv1DoesNotDefine() {
        #expect(throws: FLVError.unknownVideoPacketType(6)) { try FLVExVideoTagBody(parsing: [0x96, 0x68, 0x76, 0x63, 0x31]) }
        #expect(throws: FLVError.unknownVideoPacketType(15)) { try FLVExVideoTagBody(parsing: [0x9F]) }
        #expect(throws: FLVError.unknownVideoFrameType(0)) { try FLVExVideoTagBody(parsing: [0x83, 0x68, 0x76, 0x63, 0x31]) }
        #expect(throws: FLVError.unknownVideoFrameType(7)) { try FLVExVideoTagBody(parsing: [0xF3, 0x68, 0x76, 0x63, 0x31]) }
        #expect(throws: FLVError.unsupportedVideoFourCC(0x6876_6331 + 1)) {
            try FLVExVideoTagBody(parsing: [0x93, 0x68, 0x76, 0x63, 0x32])
        }
        #expect(throws: FLVError.unsupportedVideoCodec(7)) { try FLVExVideoTagBody(parsing: [0x17, 0x01, 0, 0, 0]) }
        // The legacy parser names an E-RTMP body for what it is, not as "codec id 3".
        #expect(throws: FLVError.enhancedVideoTag(packetType: 3)) { try FLVVideoTagBody(parsing: [0x93, 0x68, 0x76, 0x63, 0x31]) }
        #expect(FLVError.unsupportedVideoFourCC(0x6876_6332).description == "unsupported Enhanced RTMP video FourCC hvc2 (0x68766332)")
    }

    /// Byte-at-a-time: every proper prefix of each packet type is reported as truncated.
    @Test func everyPrefixIsTruncated() throws {
        let frames = try FLVExVideoTagBody.codedFrame(isKeyframe: false, compositionTime: 66, data: [])
        let framesX = try FLVExVideoTagBody.codedFrame(isKeyframe: true, compositionTime: 0, data: [])
        for bytes in [frames.encoded(), framesX.encoded(), FLVMuxer().sequenceEndTag(timestamp: 0).body] {
            for prefix in Fixtures.prefixes(of: bytes) {
                let error = #expect(throws: FLVError.self) { try FLVVideoData(parsing: prefix) }
                guard case .truncated = error else {
                    Issue.record("prefix \(prefix) gave \(String(describing: error))")
                    continue
                }
            }
        }
    }

    @Test func videoDataTellsLegacyFromEnhancedByTheIsExHeaderBit() throws {
        let avc = try FLVVideoTagBody(frameType: .keyframe, avcPacketType: .nalu, compositionTime: 0, data: [0, 0, 0, 1, 0x65])
        let hevc = try FLVExVideoTagBody.codedFrame(isKeyframe: true, compositionTime: 0, data: [0, 0, 0, 2, 0x26, 0x01])
        #expect(try FLVVideoData(parsing: avc.encoded()) == .legacy(avc))
        #expect(try FLVVideoData(parsing: hevc.encoded()) == .enhanced(hevc))
        let parsed = try FLVVideoData(parsing: hevc.encoded())
        #expect(parsed.isKeyframe && parsed.isCodedFrame && !parsed.isSequenceHeader && !parsed.isEndOfSequence)
        #expect(parsed.data == [0, 0, 0, 2, 0x26, 0x01])
        #expect(try FLVVideoData(parsing: FLVMuxer().sequenceEndTag(timestamp: 0).body).isEndOfSequence)
        #expect(FLVVideoData.enhanced(hevc).encoded() == hevc.encoded())
    }
}
