import Testing
@testable import FLV

@Suite struct AVCDecoderConfigurationRecordTests {
    /// What ffmpeg's mp4 muxer wrote as the avcC box payload for the same stream (independent of us).
    static let highGolden: [UInt8] =
        [
            0x01,        // configurationVersion 1
            0x64,        // AVCProfileIndication 100 (High)
            0x00,        // profile_compatibility (constraint flags)
            0x1E,        // AVCLevelIndication 30 (level 3.0)
            0xFF,        // '111111' + lengthSizeMinusOne 3
            0xE1,        // '111' + numOfSequenceParameterSets 1
            0x00, 0x1A,  // SPS length 26
        ] + Fixtures.highSPS + [
            0x01,        // numOfPictureParameterSets 1
            0x00, 0x06,  // PPS length 6
        ] + Fixtures.highPPS + [
            0xFD,        // '111111' + chroma_format 1 (4:2:0)
            0xF8,        // '11111' + bit_depth_luma_minus8 0
            0xF8,        // '11111' + bit_depth_chroma_minus8 0
            0x00,        // numOfSequenceParameterSetExt 0
        ]

    static let baselineGolden: [UInt8] =
        [
            0x01,        // configurationVersion 1
            0x42,        // AVCProfileIndication 66 (Baseline)
            0xC0,        // profile_compatibility: constraint_set0 and set1 (Constrained Baseline)
            0x0D,        // AVCLevelIndication 13 (level 1.3)
            0xFF,        // '111111' + lengthSizeMinusOne 3
            0xE1,        // '111' + one SPS
            0x00, 0x18,  // SPS length 24
        ] + Fixtures.baselineSPS + [
            0x01,        // one PPS
            0x00, 0x05,  // PPS length 5
        ] + Fixtures.baselinePPS  // no High-profile tail for profile 66

    @Test func buildsHighProfileRecordFromRealSPS() throws {
        let record = try AVCDecoderConfigurationRecord(sps: Fixtures.highSPS, pps: Fixtures.highPPS)
        #expect(record.profileIndication == 100)
        #expect(record.levelIndication == 30)
        let ext = try #require(record.highProfileExtension)
        #expect(ext.chromaFormat == 1)
        #expect(ext.bitDepthLumaMinus8 == 0)
        #expect(ext.bitDepthChromaMinus8 == 0)
        #expect(record.encoded() == Self.highGolden)
    }

    @Test func buildsBaselineRecordWithoutTail() throws {
        let record = try AVCDecoderConfigurationRecord(sps: Fixtures.baselineSPS, pps: Fixtures.baselinePPS)
        #expect(record.highProfileExtension == nil)
        #expect(record.encoded() == Self.baselineGolden)
    }

    @Test(arguments: [highGolden, baselineGolden])
    func roundTrips(bytes: [UInt8]) throws {
        let record = try AVCDecoderConfigurationRecord(parsing: bytes)
        #expect(record.encoded() == bytes)
        #expect(record.sequenceParameterSets.count == 1)
        #expect(record.pictureParameterSets.count == 1)
    }

    @Test func acceptsHighProfileRecordWithoutTail() throws {
        // Older writers stop after the PPS even for High profile.
        let record = try AVCDecoderConfigurationRecord(parsing: Self.highGolden.dropLast(4))
        #expect(record.highProfileExtension == nil)
        #expect(record.sequenceParameterSets == [Fixtures.highSPS])
    }

    @Test func everyPrefixIsTruncatedExceptTheTaillessOne() {
        for prefix in Fixtures.prefixes(of: Self.highGolden) where prefix.count != Self.highGolden.count - 4 {
            let error = #expect(throws: FLVError.self) { try AVCDecoderConfigurationRecord(parsing: prefix) }
            guard case .truncated = error else {
                Issue.record("prefix of \(prefix.count) bytes gave \(String(describing: error))")
                continue
            }
        }
    }

    @Test func rejectsOtherConfigurationVersions() {
        var bytes = Self.baselineGolden
        bytes[0] = 2
        #expect(throws: FLVError.unsupportedConfigurationVersion(2)) { try AVCDecoderConfigurationRecord(parsing: bytes) }
    }

    @Test func rejectsTooShortSPS() {
        #expect(throws: FLVError.spsTooShort(length: 3)) {
            try AVCDecoderConfigurationRecord(sps: [0x67, 0x64, 0x00], pps: Fixtures.highPPS)
        }
    }

    @Test func rejectsSPSCutInsideItsFields() {
        // High profile needs seq_parameter_set_id and chroma_format_idc after the level byte.
        #expect(throws: FLVError.malformedSPS("ends inside a field")) {
            try AVCDecoderConfigurationRecord(sps: [0x67, 0x64, 0x00, 0x1E], pps: Fixtures.highPPS)
        }
    }

    @Test func rejectsOverlongExpGolomb() {
        #expect(throws: FLVError.malformedSPS("Exp-Golomb code longer than 32 bits")) {
            try AVCDecoderConfigurationRecord(sps: [0x67, 0x64, 0x00, 0x1E, 0, 0, 0, 0, 0x80], pps: Fixtures.highPPS)
        }
    }

    @Test func rejectsSwappedParameterSets() {
        #expect(throws: FLVError.notAnSPS(nalUnitType: 8)) {
            try AVCDecoderConfigurationRecord(sps: Fixtures.highPPS + [0, 0], pps: Fixtures.highPPS)
        }
        #expect(throws: FLVError.notAPPS(nalUnitType: 7)) {
            try AVCDecoderConfigurationRecord(sps: Fixtures.highSPS, pps: Fixtures.highSPS)
        }
        #expect(throws: FLVError.notAPPS(nalUnitType: nil)) {
            try AVCDecoderConfigurationRecord(sps: Fixtures.highSPS, pps: [])
        }
    }

    /// Hand-built SPS for High 4:2:2 (profile 122): after the level byte the bits are
    /// ue(0) seq_parameter_set_id = "1", ue(2) chroma_format_idc = "011",
    /// ue(2) bit_depth_luma_minus8 = "011", ue(2) bit_depth_chroma_minus8 = "011", then padding:
    /// 1011 0110 | 1110 0000.
    @Test func readsChromaFormatAndBitDepthFromHigh422SPS() throws {
        let sps: [UInt8] = [0x67, 0x7A, 0x00, 0x1F, 0xB6, 0xE0]
        let record = try AVCDecoderConfigurationRecord(sps: sps, pps: Fixtures.highPPS)
        #expect(record.highProfileExtension == .init(chromaFormat: 2, bitDepthLumaMinus8: 2, bitDepthChromaMinus8: 2))
        #expect(record.encoded().suffix(4) == [0xFE, 0xFA, 0xFA, 0x00])  // chroma 2, depths 2, no ext
    }

    @Test func removesEmulationPreventionBytes() {
        #expect(RBSPBitReader.removingEmulationPrevention([0x00, 0x00, 0x03, 0x01, 0x00, 0x00, 0x03, 0x00, 0x00, 0x03])
            == [0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00])
        // 03 after a single zero is data.
        #expect(RBSPBitReader.removingEmulationPrevention([0x00, 0x03, 0x00]) == [0x00, 0x03, 0x00])
    }

    @Test func readsExpGolombCodes() throws {
        // 1 | 010 | 011 | 00100 | 0000 0000 1 0000 0000 (ue = 2^8 − 1 + 0 = 255) | padding
        var reader = RBSPBitReader(nalPayload: [0b1010_0110, 0b0100_0000, 0b0000_1000, 0b0000_0000])
        #expect(try reader.unsignedExpGolomb() == 0)
        #expect(try reader.unsignedExpGolomb() == 1)
        #expect(try reader.unsignedExpGolomb() == 2)
        #expect(try reader.unsignedExpGolomb() == 3)
        #expect(try reader.unsignedExpGolomb() == 255)
    }

    @Test func enforcesFieldLimits() {
        #expect(throws: FLVError.parameterSetLimit("32 SPS, at most 31")) {
            try AVCDecoderConfigurationRecord(
                profileIndication: 66, profileCompatibility: 0, levelIndication: 30,
                sequenceParameterSets: Array(repeating: Fixtures.baselineSPS, count: 32),
                pictureParameterSets: [Fixtures.baselinePPS])
        }
        #expect(throws: FLVError.parameterSetLimit("parameter set of 65536 bytes, at most 65535")) {
            try AVCDecoderConfigurationRecord(
                profileIndication: 66, profileCompatibility: 0, levelIndication: 30,
                sequenceParameterSets: [Fixtures.baselineSPS],
                pictureParameterSets: [[UInt8](repeating: 0x68, count: 65_536)])
        }
    }
}
