import Media

/// The leading fields of an H.265 picture parameter set (ITU-T H.265 §7.3.2.3.1), read as far as
/// the two flags that tell an HEVCDecoderConfigurationRecord's parallelismType.
struct H265PictureParameterSet: Equatable, Sendable {
    var tilesEnabled: Bool
    var entropyCodingSyncEnabled: Bool

    /// `nalUnit` is the whole PPS NAL unit, two header bytes included, no start code.
    init(nalUnit: [UInt8]) throws(FLVError) {
        var reader = try HEVCNALUnitType.pps.parameterSetReader(for: nalUnit)
        _ = try reader.unsignedExpGolomb()  // pps_pic_parameter_set_id
        _ = try reader.unsignedExpGolomb()  // pps_seq_parameter_set_id
        // dependent_slice_segments_enabled_flag, output_flag_present_flag,
        // num_extra_slice_header_bits u(3), sign_data_hiding_enabled_flag, cabac_init_present_flag.
        try reader.skip(1 + 1 + 3 + 1 + 1)
        _ = try reader.unsignedExpGolomb()  // num_ref_idx_l0_default_active_minus1
        _ = try reader.unsignedExpGolomb()  // num_ref_idx_l1_default_active_minus1
        _ = try reader.signedExpGolomb()    // init_qp_minus26
        try reader.skip(2)  // constrained_intra_pred_flag, transform_skip_enabled_flag
        if try reader.bit() == 1 {  // cu_qp_delta_enabled_flag
            _ = try reader.unsignedExpGolomb()  // diff_cu_qp_delta_depth
        }
        _ = try reader.signedExpGolomb()  // pps_cb_qp_offset
        _ = try reader.signedExpGolomb()  // pps_cr_qp_offset
        // pps_slice_chroma_qp_offsets_present_flag, weighted_pred_flag, weighted_bipred_flag,
        // transquant_bypass_enabled_flag.
        try reader.skip(4)
        tilesEnabled = try reader.bit() == 1
        entropyCodingSyncEnabled = try reader.bit() == 1
    }

    /// The record's parallelismType (ISO/IEC 14496-15 §8.3.3.1.2): 1 slices, 2 tiles,
    /// 3 wavefronts (entropy coding sync), 0 mixed or unknown.
    var parallelismType: UInt8 {
        switch (tilesEnabled, entropyCodingSyncEnabled) {
        case (true, true): 0
        case (false, true): 3
        case (true, false): 2
        case (false, false): 1
        }
    }
}
