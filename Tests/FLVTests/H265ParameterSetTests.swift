import Media
import Testing
import TestSupport
@testable import FLV

/// The H.265 VPS/SPS/PPS readers on x265's real parameter sets, and on hand-built SPS that reach
/// the parts x265 leaves out (VUI with HRD parameters and a bitstream restriction).
@Suite struct H265ParameterSetTests {
    @Test func readsX265MainParameterSets() throws {
        let vps = try H265VideoParameterSet(nalUnit: HEVCFixtures.main.vps)
        #expect(vps.maxSubLayersMinus1 == 0)
        #expect(vps.profileTierLevel.profileIDC == 1)
        let sps = try H265SequenceParameterSet(nalUnit: HEVCFixtures.main.sps)
        #expect(sps.profileTierLevel == vps.profileTierLevel)
        #expect(sps.chromaFormatIDC == 1)
        #expect(sps.displaySize == (640, 360))
        #expect(sps.minSpatialSegmentationIDC == nil)
        // x265 codes wavefronts (wpp) by default: entropy_coding_sync_enabled_flag.
        let pps = try H265PictureParameterSet(nalUnit: HEVCFixtures.main.pps)
        #expect(pps.entropyCodingSyncEnabled)
        #expect(!pps.tilesEnabled)
        #expect(pps.parallelismType == 3)
    }

    @Test func readsSignedExpGolomb() throws {
        // ue codes 0, 1, 2, 3, 4 → se 0, 1, −1, 2, −2: 1 | 010 | 011 | 00100 | 00101 | padding
        var reader = RBSPBitReader(nalPayload: [0b1010_0110, 0b0100_0010, 0b1000_0000])
        #expect(try reader.signedExpGolomb() == 0)
        #expect(try reader.signedExpGolomb() == 1)
        #expect(try reader.signedExpGolomb() == -1)
        #expect(try reader.signedExpGolomb() == 2)
        #expect(try reader.signedExpGolomb() == -2)
    }

    /// An SPS whose VUI carries timing, HRD parameters with fixed_pic_rate_general_flag = 1
    /// (fixed_pic_rate_within_cvs_flag is then inferred, not read) and a bitstream restriction
    /// with min_spatial_segmentation_idc 4; and a PPS with wavefronts: the record then says
    /// parallelismType 3.
    @Test func readsMinSpatialSegmentationPastHRDParameters() throws {
        let sps = Self.spsWithVUI(minSpatialSegmentation: 4)
        let parsed = try H265SequenceParameterSet(nalUnit: sps)
        #expect(parsed.minSpatialSegmentationIDC == 4)
        #expect(parsed.displaySize == (64, 64))
        let record = try HEVCDecoderConfigurationRecord(parameterSets: [HEVCFixtures.main.vps, sps, HEVCFixtures.main.pps])
        #expect(record.minSpatialSegmentationIDC == 4)
        #expect(record.parallelismType == 3)
        #expect(record.encoded()[13...14] == [0xF0, 0x04])
        #expect(record.encoded()[15] == 0xFF)
    }

    /// Conformance offsets are ue(v) up to 2^32 − 2: two of them overflow 32 bits, not the size.
    @Test func hugeConformanceWindowLeavesNoPicture() throws {
        let sps = try H265SequenceParameterSet(nalUnit: Self.spsWithVUI(minSpatialSegmentation: 0, conformanceOffset: 0xFFFF_FFFE))
        #expect(sps.conformanceWindow.left == 0xFFFF_FFFE)
        #expect(sps.displaySize == (0, 0))
    }

    @Test func rejectsOutOfRangeSegmentation() {
        #expect(throws: FLVError.malformedHEVCParameterSet("SPS: min_spatial_segmentation_idc 4096 > 4095")) {
            try H265SequenceParameterSet(nalUnit: Self.spsWithVUI(minSpatialSegmentation: 4096))
        }
    }

    /// Parameter sets from a broken or hostile encoder (or a reader's peer) give an error, never a
    /// trap: x265's real sets and the hand-built SPS with bits flipped, bytes cut and bytes added,
    /// each seed replayable.
    @Test(arguments: 0..<4)
    func mutatedParameterSetsNeverCrash(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let originals = HEVCFixtures.all.flatMap(\.parameterSets) + [Self.spsWithVUI(minSpatialSegmentation: 4)]
        for _ in 0..<2_000 {
            var bytes = originals[random.next(in: 0...originals.count - 1)]
            for _ in 0..<random.next(in: 1...4) {
                switch random.next(in: 0...2) {
                case 0: bytes[random.next(in: 2...bytes.count - 1)] ^= UInt8(1 << random.next(in: 0...7))
                case 1: bytes = Array(bytes.prefix(random.next(in: 2...bytes.count)))
                default: bytes.append(UInt8(truncatingIfNeeded: random.next()))
                }
                if bytes.count < 3 { bytes += [0xFF] }
            }
            let sets = HEVCFixtures.main.parameterSets.map { HEVCNALUnitType.rawType(of: $0) == HEVCNALUnitType.rawType(of: bytes) ? bytes : $0 }
            if case .success(let sps) = Result(catching: { () throws(FLVError) in try H265SequenceParameterSet(nalUnit: bytes) }) {
                #expect(sps.displaySize.width >= 0)  // offsets up to 2^32 − 2 each must not overflow
            }
            // Either a record that round-trips or an FLVError (typed throws: nothing else can come).
            let built = Result { () throws(FLVError) in try HEVCDecoderConfigurationRecord(parameterSets: sets) }
            if case .success(let record) = built {
                #expect(try HEVCDecoderConfigurationRecord(parsing: record.encoded()) == record, "seed \(seed)")
            }
        }
    }

    /// A Main-profile SPS for 64x64 written field by field (H.265 §7.3.2.2.1, §E.2.1, §E.2.2),
    /// with two short-term RPS, the second predicted from the first.
    static func spsWithVUI(minSpatialSegmentation: UInt32, conformanceOffset: UInt32? = nil) -> [UInt8] {
        var bits = BitWriter()
        bits.write(0, 4)  // sps_video_parameter_set_id
        bits.write(0, 3)  // sps_max_sub_layers_minus1
        bits.write(1, 1)  // sps_temporal_id_nesting_flag
        // profile_tier_level: space 0, tier 0, idc 1; compatibility flags; 48 constraint bits; level 93
        bits.write(1, 8)
        bits.write(0x6000_0000, 32)
        bits.write(0x9000, 16)
        bits.write(0, 32)
        bits.write(93, 8)
        bits.ue(0)  // sps_seq_parameter_set_id
        bits.ue(1)  // chroma_format_idc
        bits.ue(64)  // pic_width_in_luma_samples
        bits.ue(64)  // pic_height_in_luma_samples
        if let conformanceOffset {
            bits.write(1, 1)  // conformance_window_flag
            for _ in 0..<4 { bits.ue(conformanceOffset) }  // left, right, top, bottom
        } else {
            bits.write(0, 1)  // conformance_window_flag
        }
        bits.ue(0)  // bit_depth_luma_minus8
        bits.ue(0)  // bit_depth_chroma_minus8
        bits.ue(4)  // log2_max_pic_order_cnt_lsb_minus4
        bits.write(1, 1)  // sps_sub_layer_ordering_info_present_flag
        bits.ue(2); bits.ue(0); bits.ue(0)  // max_dec_pic_buffering_minus1, num_reorder, latency
        for value: UInt32 in [0, 3, 0, 3, 1, 1] { bits.ue(value) }  // block sizes, transform depths
        bits.write(0, 1)  // scaling_list_enabled_flag
        bits.write(0, 1)  // amp_enabled_flag
        bits.write(1, 1)  // sample_adaptive_offset_enabled_flag
        bits.write(0, 1)  // pcm_enabled_flag
        bits.ue(2)  // num_short_term_ref_pic_sets
        bits.ue(1); bits.ue(0); bits.ue(0); bits.write(1, 1)  // set 0: one negative picture, used
        bits.write(1, 1)  // set 1: inter_ref_pic_set_prediction_flag
        bits.write(0, 1); bits.ue(0)  // delta_rps_sign, abs_delta_rps_minus1
        bits.write(1, 1); bits.write(0, 1); bits.write(1, 1)  // NumDeltaPocs[0] + 1 = 2 entries: used; not used, use_delta
        bits.write(0, 1)  // long_term_ref_pics_present_flag
        bits.write(1, 1); bits.write(1, 1)  // sps_temporal_mvp_enabled_flag, strong_intra_smoothing_enabled_flag
        bits.write(1, 1)  // vui_parameters_present_flag
        bits.write(0, 1)  // aspect_ratio_info_present_flag
        bits.write(0, 1)  // overscan_info_present_flag
        bits.write(1, 1); bits.write(5, 3); bits.write(0, 1); bits.write(1, 1)  // video signal type, colour description
        bits.write(1, 8); bits.write(1, 8); bits.write(1, 8)  // BT.709 primaries, transfer, matrix
        bits.write(0, 1)  // chroma_loc_info_present_flag
        bits.write(0, 3)  // neutral_chroma, field_seq, frame_field_info_present
        bits.write(0, 1)  // default_display_window_flag
        bits.write(1, 1)  // vui_timing_info_present_flag
        bits.write(1, 32); bits.write(30, 32)  // num_units_in_tick, time_scale
        bits.write(0, 1)  // vui_poc_proportional_to_timing_flag
        bits.write(1, 1)  // vui_hrd_parameters_present_flag
        bits.write(1, 1); bits.write(0, 1)  // nal_hrd_parameters_present_flag, vcl_hrd_parameters_present_flag
        bits.write(0, 1)  // sub_pic_hrd_params_present_flag
        bits.write(0, 4); bits.write(0, 4)  // bit_rate_scale, cpb_size_scale
        bits.write(23, 5); bits.write(23, 5); bits.write(23, 5)  // delay length fields
        bits.write(1, 1)  // fixed_pic_rate_general_flag (within_cvs inferred 1: no flag follows)
        bits.ue(0)  // elemental_duration_in_tc_minus1 (low_delay_hrd_flag is absent)
        bits.ue(0)  // cpb_cnt_minus1
        bits.ue(1000); bits.ue(2000); bits.write(0, 1)  // bit_rate_value_minus1, cpb_size_value_minus1, cbr_flag
        bits.write(1, 1)  // bitstream_restriction_flag
        bits.write(0, 3)  // tiles_fixed_structure, motion_vectors_over_pic_boundaries, restricted_ref_pic_lists
        bits.ue(minSpatialSegmentation)
        bits.ue(2); bits.ue(1); bits.ue(15); bits.ue(15)  // max bytes/bits denominators, mv lengths
        bits.write(0, 1)  // sps_extension_present_flag
        return [0x42, 0x01] + bits.rbspWithTrailingBits()
    }
}

/// Writes RBSP bits for hand-built parameter sets, inserting emulation-prevention bytes as an
/// encoder must.
struct BitWriter {
    private var bits: [Bool] = []

    mutating func write(_ value: UInt32, _ count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) { bits.append(value >> UInt32(shift) & 1 == 1) }
    }

    mutating func ue(_ value: UInt32) {
        let code = UInt64(value) + 1
        let length = 64 - code.leadingZeroBitCount
        for _ in 0..<(length - 1) { bits.append(false) }
        for shift in stride(from: length - 1, through: 0, by: -1) { bits.append(code >> UInt64(shift) & 1 == 1) }
    }

    func rbspWithTrailingBits() -> [UInt8] {
        var all = bits + [true]
        while all.count % 8 != 0 { all.append(false) }
        var bytes: [UInt8] = []
        var zeros = 0
        for start in stride(from: 0, to: all.count, by: 8) {
            let byte = all[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
            if zeros >= 2 && byte <= 3 {
                bytes.append(3)
                zeros = 0
            }
            bytes.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return bytes
    }
}
