import Testing
@testable import FLV

@Suite struct HEVCDecoderConfigurationRecordTests {
    /// The record for x265's Main-profile VPS/SPS/PPS, field by field; the same bytes FFmpeg 8's
    /// flvenc wrote (HEVCFixtures.main.ffmpegRecord).
    static let mainGolden: [UInt8] =
        [
            0x01,                    // configurationVersion 1
            0x01,                    // general_profile_space 0, general_tier_flag 0 (Main tier), general_profile_idc 1 (Main)
            0x60, 0x00, 0x00, 0x00,  // general_profile_compatibility_flags: Main (1) and Main 10 (2)
            0x90, 0x00, 0x00, 0x00, 0x00, 0x00,  // general_constraint_indicator_flags: progressive, frame-only
            0x3F,                    // general_level_idc 63 (level 2.1)
            0xF0, 0x00,              // '1111' + min_spatial_segmentation_idc 0 (x265's SPS has no bitstream restriction)
            0xFC,                    // '111111' + parallelismType 0 (unknown: no segmentation guarantee)
            0xFD,                    // '111111' + chromaFormat 1 (4:2:0)
            0xF8,                    // '11111' + bitDepthLumaMinus8 0
            0xF8,                    // '11111' + bitDepthChromaMinus8 0
            0x00, 0x00,              // avgFrameRate 0 (unspecified)
            0x0F,                    // constantFrameRate 0, numTemporalLayers 1, temporalIdNested 1, lengthSizeMinusOne 3
            0x03,                    // numOfArrays 3
            0x20,                    // array_completeness 0, reserved 0, NAL_unit_type 32 (VPS)
            0x00, 0x01,              // numNalus 1
            0x00, 0x18,              // nalUnitLength 24
        ] + HEVCFixtures.main.vps + [
            0x21,                    // array_completeness 0, NAL_unit_type 33 (SPS)
            0x00, 0x01,              // numNalus 1
            0x00, 0x2A,              // nalUnitLength 42
        ] + HEVCFixtures.main.sps + [
            0x22,                    // array_completeness 0, NAL_unit_type 34 (PPS)
            0x00, 0x01,              // numNalus 1
            0x00, 0x07,              // nalUnitLength 7
        ] + HEVCFixtures.main.pps

    @Test func buildsMainRecordFromRealParameterSets() throws {
        let record = try HEVCDecoderConfigurationRecord(parameterSets: HEVCFixtures.main.parameterSets)
        #expect(record.generalProfileIDC == 1)
        #expect(record.generalLevelIDC == 63)
        #expect(record.chromaFormat == 1)
        #expect(record.numTemporalLayers == 1)
        #expect(record.temporalIDNested)
        #expect(record.encoded() == Self.mainGolden)
        #expect(Self.mainGolden == HEVCFixtures.main.ffmpegRecord)
    }

    /// Byte for byte what FFmpeg 8 wrote for the same parameter sets, for each profile x265
    /// makes here: Main, Main 10, Main 4:4:4, Main 4:2:2 10 (profile idc, compatibility and
    /// constraint flags, chroma format and bit depths all differ between them).
    @Test(arguments: HEVCFixtures.all)
    func matchesWhatFFmpegWrites(stream: HEVCFixtures.Stream) throws {
        let record = try HEVCDecoderConfigurationRecord(parameterSets: stream.parameterSets)
        #expect(record.encoded() == stream.ffmpegRecord)
    }

    @Test func readsChromaFormatAndBitDepthFromTheSPS() throws {
        let main10 = try HEVCDecoderConfigurationRecord(parameterSets: HEVCFixtures.main10.parameterSets)
        #expect(main10.generalProfileIDC == 2)
        #expect((main10.chromaFormat, main10.bitDepthLumaMinus8, main10.bitDepthChromaMinus8) == (1, 2, 2))
        let main444 = try HEVCDecoderConfigurationRecord(parameterSets: HEVCFixtures.main444.parameterSets)
        #expect(main444.generalProfileIDC == 4)
        #expect((main444.chromaFormat, main444.bitDepthLumaMinus8) == (3, 0))
        let main422 = try HEVCDecoderConfigurationRecord(parameterSets: HEVCFixtures.main422_10.parameterSets)
        #expect((main422.chromaFormat, main422.bitDepthLumaMinus8, main422.bitDepthChromaMinus8) == (2, 2, 2))
    }

    @Test func parameterSetsMayComeInAnyOrderAndKeepTheirArrays() throws {
        let stream = HEVCFixtures.main
        let record = try HEVCDecoderConfigurationRecord(parameterSets: [stream.pps, stream.sps, stream.vps])
        #expect(record.encoded() == Self.mainGolden)
        #expect(record.nalUnits(ofType: .vps) == [stream.vps])
        #expect(record.nalUnits(ofType: .sps) == [stream.sps])
        #expect(record.nalUnits(ofType: .pps) == [stream.pps])
    }

    @Test func arrayCompletenessIsTheCallersChoice() throws {
        let record = try HEVCDecoderConfigurationRecord(parameterSets: HEVCFixtures.main.parameterSets, arrayCompleteness: true)
        #expect(record.arrays.map { $0.arrayCompleteness } == [true, true, true])
        let bytes = record.encoded()
        #expect(bytes[23] == 0xA0)  // completeness 1, VPS
    }

    @Test(arguments: HEVCFixtures.all)
    func roundTrips(stream: HEVCFixtures.Stream) throws {
        let record = try HEVCDecoderConfigurationRecord(parsing: stream.ffmpegRecord)
        #expect(record.encoded() == stream.ffmpegRecord)
        #expect(record == (try HEVCDecoderConfigurationRecord(parameterSets: stream.parameterSets)))
    }

    /// A whole-buffer parser's byte-at-a-time view: every proper prefix is reported as truncated.
    @Test func everyPrefixIsTruncated() {
        for prefix in Fixtures.prefixes(of: Self.mainGolden) {
            let error = #expect(throws: FLVError.self) { try HEVCDecoderConfigurationRecord(parsing: prefix) }
            guard case .truncated = error else {
                Issue.record("prefix of \(prefix.count) bytes gave \(String(describing: error))")
                continue
            }
        }
    }

    @Test func rejectsOtherConfigurationVersions() {
        var bytes = Self.mainGolden
        bytes[0] = 0
        #expect(throws: FLVError.unsupportedConfigurationVersion(0)) { try HEVCDecoderConfigurationRecord(parsing: bytes) }
    }

    @Test func rejectsMissingOrForeignParameterSets() {
        let main = HEVCFixtures.main
        #expect(throws: FLVError.notAnHEVCParameterSet(expected: "VPS", nalUnitType: nil)) {
            try HEVCDecoderConfigurationRecord(parameterSets: [main.sps, main.pps])
        }
        #expect(throws: FLVError.notAnHEVCParameterSet(expected: "PPS", nalUnitType: nil)) {
            try HEVCDecoderConfigurationRecord(parameterSets: [main.vps, main.sps])
        }
        // An H.264 SPS (0x67: forbidden 0, type bits 0b110011 = 51 when read as H.265).
        #expect(throws: FLVError.notAnHEVCParameterSet(expected: "VPS, SPS or PPS", nalUnitType: 51)) {
            try HEVCDecoderConfigurationRecord(parameterSets: [main.vps, Fixtures.highSPS, main.pps])
        }
        #expect(throws: FLVError.notAnHEVCParameterSet(expected: "VPS, SPS or PPS", nalUnitType: nil)) {
            try HEVCDecoderConfigurationRecord(parameterSets: [main.vps, [], main.sps, main.pps])
        }
    }

    @Test func rejectsParameterSetsCutShort() {
        let main = HEVCFixtures.main
        #expect(throws: FLVError.malformedHEVCParameterSet("SPS: ends inside a field")) {
            try HEVCDecoderConfigurationRecord(parameterSets: [main.vps, Array(main.sps.prefix(20)), main.pps])
        }
        #expect(throws: FLVError.malformedHEVCParameterSet("VPS: ends inside a field")) {
            try HEVCDecoderConfigurationRecord(parameterSets: [Array(main.vps.prefix(10)), main.sps, main.pps])
        }
        #expect(throws: FLVError.malformedHEVCParameterSet("PPS: ends inside a field")) {
            try HEVCDecoderConfigurationRecord(parameterSets: [main.vps, main.sps, Array(main.pps.prefix(3))])
        }
        #expect(throws: FLVError.notAnHEVCParameterSet(expected: "SPS", nalUnitType: nil)) {
            try H265SequenceParameterSet(nalUnit: [0x42])
        }
    }

    @Test func rejectsOtherLayers() {
        var sps = HEVCFixtures.main.sps
        sps[1] |= 0x08  // nuh_layer_id 1
        #expect(throws: FLVError.malformedHEVCParameterSet("SPS: nuh_layer_id 1, only 0 is supported")) {
            try H265SequenceParameterSet(nalUnit: sps)
        }
    }

    @Test func enforcesFieldLimits() {
        #expect(throws: FLVError.hevcRecordLimit("bitDepthLumaMinus8 8 does not fit 3 bits")) {
            try HEVCDecoderConfigurationRecord(
                generalProfileSpace: 0, generalTierFlag: false, generalProfileIDC: 4, generalProfileCompatibilityFlags: 0,
                generalConstraintIndicatorFlags: 0, generalLevelIDC: 93, chromaFormat: 1, bitDepthLumaMinus8: 8,
                bitDepthChromaMinus8: 0, numTemporalLayers: 1, temporalIDNested: true, arrays: [])
        }
        #expect(throws: FLVError.hevcRecordLimit("NAL unit of 65536 bytes, at most 65535")) {
            try HEVCDecoderConfigurationRecord(
                generalProfileSpace: 0, generalTierFlag: false, generalProfileIDC: 1, generalProfileCompatibilityFlags: 0,
                generalConstraintIndicatorFlags: 0, generalLevelIDC: 93, chromaFormat: 1, bitDepthLumaMinus8: 0,
                bitDepthChromaMinus8: 0, numTemporalLayers: 1, temporalIDNested: true,
                arrays: [.init(arrayCompleteness: false, nalUnitType: 39, nalUnits: [[UInt8](repeating: 0x4E, count: 65_536)])])
        }
    }
}
