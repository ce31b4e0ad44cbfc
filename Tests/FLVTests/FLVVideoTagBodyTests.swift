import Testing
@testable import FLV

@Suite struct FLVVideoTagBodyTests {
    @Test func encodesGoldenKeyframe() throws {
        let body = try FLVVideoTagBody(frameType: .keyframe, avcPacketType: .nalu, compositionTime: 66,
                                       data: [0x00, 0x00, 0x00, 0x01, 0x65])
        let bytes: [UInt8] = [
            0x17,                    // FrameType 1 (keyframe) << 4 | CodecID 7 (AVC)
            0x01,                    // AVCPacketType 1 (NALU)
            0x00, 0x00, 0x42,        // CompositionTime 66 ms
            0x00, 0x00, 0x00, 0x01,  // NAL length 1
            0x65,                    // NAL unit: IDR slice header byte
        ]
        #expect(body.encoded() == bytes)
        #expect(try FLVVideoTagBody(parsing: bytes) == body)
    }

    @Test(arguments: [Int32(-0x80_0000), -1, 0, 1, 0x7F_FFFF])
    func compositionTimeRoundTrips(compositionTime: Int32) throws {
        let body = try FLVVideoTagBody(frameType: .interFrame, avcPacketType: .nalu,
                                       compositionTime: compositionTime, data: [])
        let bytes = body.encoded()
        #expect(bytes[0] == 0x27)  // inter frame, AVC
        #expect(try FLVVideoTagBody(parsing: bytes).compositionTime == compositionTime)
    }

    @Test func negativeCompositionTimeIsTwosComplement() throws {
        let body = try FLVVideoTagBody(frameType: .interFrame, avcPacketType: .nalu, compositionTime: -1, data: [])
        #expect(body.encoded()[2...4] == [0xFF, 0xFF, 0xFF])
    }

    @Test(arguments: [Int32(0x80_0000), -0x80_0001, .max, .min])
    func rejectsCompositionTimeOutside24Bits(compositionTime: Int32) {
        #expect(throws: FLVError.compositionTimeOutOfRange(Int64(compositionTime))) {
            try FLVVideoTagBody(frameType: .interFrame, avcPacketType: .nalu, compositionTime: compositionTime, data: [])
        }
    }

    @Test func rejectsMalformedHeaders() {
        #expect(throws: FLVError.unsupportedVideoCodec(2)) { try FLVVideoTagBody(parsing: [0x12, 0x01, 0, 0, 0]) }
        #expect(throws: FLVError.unknownVideoFrameType(0)) { try FLVVideoTagBody(parsing: [0x07, 0x01, 0, 0, 0]) }
        #expect(throws: FLVError.unknownAVCPacketType(3)) { try FLVVideoTagBody(parsing: [0x17, 0x03, 0, 0, 0]) }
        for prefix in Fixtures.prefixes(of: [0x17, 0x01, 0x00, 0x00, 0x00]) {
            #expect(throws: FLVError.truncated(needed: prefix.count < 2 ? 1 : 3, available: prefix.count < 2 ? 0 : prefix.count - 2)) {
                try FLVVideoTagBody(parsing: prefix)
            }
        }
    }

    @Test func buildsGoldenAVCCPayload() {
        let payload = FLVVideoTagBody.avccPayload(nalUnits: [[0x06, 0x05], [0x65, 0x88, 0x84]])
        #expect(payload == [
            0x00, 0x00, 0x00, 0x02,  // length 2
            0x06, 0x05,              // SEI
            0x00, 0x00, 0x00, 0x03,  // length 3
            0x65, 0x88, 0x84,        // IDR slice
        ])
    }

    @Test func splitsAVCCPayloadBack() throws {
        let units: [[UInt8]] = [[0x09, 0xF0], [0x06], [0x65] + [UInt8](repeating: 0xAB, count: 300)]
        #expect(try FLVVideoTagBody.nalUnits(fromAVCC: FLVVideoTagBody.avccPayload(nalUnits: units)) == units)
        #expect(try FLVVideoTagBody.nalUnits(fromAVCC: []) == [])
        #expect(try FLVVideoTagBody.nalUnits(fromAVCC: [0x00, 0x01, 0x41, 0x00, 0x02, 0x65, 0x88], lengthSize: 2)
            == [[0x41], [0x65, 0x88]])
    }

    @Test func rejectsNALLengthOverrun() {
        #expect(throws: FLVError.nalLengthOverrun(declared: 5, available: 1)) {
            try FLVVideoTagBody.nalUnits(fromAVCC: [0x00, 0x00, 0x00, 0x05, 0x65])
        }
        #expect(throws: FLVError.nalLengthOverrun(declared: 0xFFFF_FFFF, available: 0)) {
            try FLVVideoTagBody.nalUnits(fromAVCC: [0xFF, 0xFF, 0xFF, 0xFF])
        }
        #expect(throws: FLVError.truncated(needed: 4, available: 3)) {
            try FLVVideoTagBody.nalUnits(fromAVCC: [0x00, 0x00, 0x00, 0x01, 0x65, 0x00, 0x00, 0x00])
        }
    }
}
