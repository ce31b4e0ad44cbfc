/// The SPS structures that sit between the fields a record needs: read only to be stepped over,
/// each as its section of ITU-T H.265 writes it.
extension H265SequenceParameterSet {
    /// scaling_list_data() (§7.3.4).
    static func skipScalingListData(_ reader: inout RBSPBitReader) throws(FLVError) {
        for sizeID in 0..<4 {
            for _ in stride(from: 0, to: 6, by: sizeID == 3 ? 3 : 1) {
                if try reader.bit() == 0 {  // scaling_list_pred_mode_flag
                    _ = try reader.unsignedExpGolomb()  // scaling_list_pred_matrix_id_delta
                } else {
                    let coefficients = min(64, 1 << (4 + (sizeID << 1)))
                    if sizeID > 1 { _ = try reader.signedExpGolomb() }  // scaling_list_dc_coef_minus8
                    for _ in 0..<coefficients { _ = try reader.signedExpGolomb() }  // scaling_list_delta_coef
                }
            }
        }
    }

    /// num_short_term_ref_pic_sets and each st_ref_pic_set(stRpsIdx) (§7.3.7). A set predicted
    /// from the one before it has one flag or two per delta POC of that set, so each set's
    /// NumDeltaPocs (§7.4.8) is kept.
    static func skipShortTermReferencePictureSets(_ reader: inout RBSPBitReader) throws(FLVError) {
        let count = Int(try reader.unsignedExpGolomb())
        guard count <= 64 else { throw reader.error("num_short_term_ref_pic_sets \(count) > 64") }
        var numDeltaPocs: [Int] = []
        for index in 0..<count {
            if index != 0, try reader.bit() == 1 {  // inter_ref_pic_set_prediction_flag
                // In an SPS delta_idx_minus1 is absent (inferred 0): the reference is the set before.
                try reader.skip(1)  // delta_rps_sign
                _ = try reader.unsignedExpGolomb()  // abs_delta_rps_minus1
                var deltas = 0
                for _ in 0...numDeltaPocs[index - 1] {
                    let usedByCurrentPicture = try reader.bit() == 1  // used_by_curr_pic_flag
                    let useDelta = usedByCurrentPicture ? true : try reader.bit() == 1  // use_delta_flag
                    if usedByCurrentPicture || useDelta { deltas += 1 }
                }
                numDeltaPocs.append(deltas)
            } else {
                let negative = try reader.unsignedExpGolomb()  // num_negative_pics
                let positive = try reader.unsignedExpGolomb()  // num_positive_pics
                // Both are bounded by sps_max_dec_pic_buffering_minus1, at most 15.
                guard negative <= 16, positive <= 16 else {
                    throw reader.error("st_ref_pic_set \(index) has \(negative) negative and \(positive) positive pictures, at most 16 each")
                }
                for _ in 0..<(negative + positive) {
                    _ = try reader.unsignedExpGolomb()  // delta_poc_s0/s1_minus1
                    try reader.skip(1)  // used_by_curr_pic_s0/s1_flag
                }
                numDeltaPocs.append(Int(negative + positive))
            }
        }
    }

    /// vui_parameters() (§E.2.1) up to bitstream_restriction: min_spatial_segmentation_idc, or
    /// nil when the VUI has no restriction part.
    static func minSpatialSegmentationFromVUI(_ reader: inout RBSPBitReader, maxSubLayersMinus1: Int) throws(FLVError) -> UInt32? {
        if try reader.bit() == 1, try reader.bits(8) == 255 {  // aspect_ratio_info_present_flag, aspect_ratio_idc
            try reader.skip(16 + 16)  // sar_width, sar_height
        }
        if try reader.bit() == 1 { try reader.skip(1) }  // overscan_info_present_flag, overscan_appropriate_flag
        if try reader.bit() == 1 {  // video_signal_type_present_flag
            try reader.skip(3 + 1)  // video_format, video_full_range_flag
            if try reader.bit() == 1 { try reader.skip(8 + 8 + 8) }  // colour_description_present_flag: primaries, transfer, matrix
        }
        if try reader.bit() == 1 {  // chroma_loc_info_present_flag
            _ = try reader.unsignedExpGolomb()  // chroma_sample_loc_type_top_field
            _ = try reader.unsignedExpGolomb()  // chroma_sample_loc_type_bottom_field
        }
        try reader.skip(3)  // neutral_chroma_indication_flag, field_seq_flag, frame_field_info_present_flag
        if try reader.bit() == 1 {  // default_display_window_flag: four offsets
            for _ in 0..<4 { _ = try reader.unsignedExpGolomb() }
        }
        if try reader.bit() == 1 {  // vui_timing_info_present_flag
            try reader.skip(32 + 32)  // vui_num_units_in_tick, vui_time_scale
            if try reader.bit() == 1 { _ = try reader.unsignedExpGolomb() }  // vui_poc_proportional_to_timing_flag, num_ticks_poc_diff_one_minus1
            if try reader.bit() == 1 {  // vui_hrd_parameters_present_flag
                try skipHRDParameters(&reader, maxSubLayersMinus1: maxSubLayersMinus1)
            }
        }
        guard try reader.bit() == 1 else { return nil }  // bitstream_restriction_flag
        // tiles_fixed_structure_flag, motion_vectors_over_pic_boundaries_flag, restricted_ref_pic_lists_flag
        try reader.skip(3)
        let minSpatialSegmentation = try reader.unsignedExpGolomb()
        guard minSpatialSegmentation <= 4095 else {
            throw reader.error("min_spatial_segmentation_idc \(minSpatialSegmentation) > 4095")
        }
        // max_bytes_per_pic_denom, max_bits_per_min_cu_denom, log2_max_mv_length_horizontal/vertical
        for _ in 0..<4 { _ = try reader.unsignedExpGolomb() }
        return minSpatialSegmentation
    }

    /// hrd_parameters(1, maxNumSubLayersMinus1) (§E.2.2), with sub_layer_hrd_parameters (§E.2.3).
    static func skipHRDParameters(_ reader: inout RBSPBitReader, maxSubLayersMinus1: Int) throws(FLVError) {
        let nalHRD = try reader.bit() == 1  // nal_hrd_parameters_present_flag
        let vclHRD = try reader.bit() == 1  // vcl_hrd_parameters_present_flag
        var subPictureParameters = false
        if nalHRD || vclHRD {
            subPictureParameters = try reader.bit() == 1  // sub_pic_hrd_params_present_flag
            if subPictureParameters {
                // tick_divisor_minus2, du_cpb_removal_delay_increment_length_minus1,
                // sub_pic_cpb_params_in_pic_timing_sei_flag, dpb_output_delay_du_length_minus1
                try reader.skip(8 + 5 + 1 + 5)
            }
            try reader.skip(4 + 4)  // bit_rate_scale, cpb_size_scale
            if subPictureParameters { try reader.skip(4) }  // cpb_size_du_scale
            // initial_cpb_removal_delay_length_minus1, au_cpb_removal_delay_length_minus1, dpb_output_delay_length_minus1
            try reader.skip(5 + 5 + 5)
        }
        for _ in 0...maxSubLayersMinus1 {
            let fixedRateGeneral = try reader.bit() == 1  // fixed_pic_rate_general_flag
            // fixed_pic_rate_within_cvs_flag is inferred 1 when the general flag is 1 (§E.3.2).
            let fixedRateWithinCVS = fixedRateGeneral ? true : try reader.bit() == 1
            var lowDelay = false
            if fixedRateWithinCVS {
                _ = try reader.unsignedExpGolomb()  // elemental_duration_in_tc_minus1
            } else {
                lowDelay = try reader.bit() == 1  // low_delay_hrd_flag
            }
            var cpbCount = 1
            if !lowDelay {
                let minus1 = try reader.unsignedExpGolomb()  // cpb_cnt_minus1
                guard minus1 <= 31 else { throw reader.error("cpb_cnt_minus1 \(minus1) > 31") }
                cpbCount = Int(minus1) + 1
            }
            for present in [nalHRD, vclHRD] where present {
                for _ in 0..<cpbCount {
                    _ = try reader.unsignedExpGolomb()  // bit_rate_value_minus1
                    _ = try reader.unsignedExpGolomb()  // cpb_size_value_minus1
                    if subPictureParameters {
                        _ = try reader.unsignedExpGolomb()  // cpb_size_du_value_minus1
                        _ = try reader.unsignedExpGolomb()  // bit_rate_du_value_minus1
                    }
                    try reader.skip(1)  // cbr_flag
                }
            }
        }
    }
}
