import Media

/// The fields of an H.265 sequence parameter set (ITU-T H.265 §7.3.2.2.1) that an
/// HEVCDecoderConfigurationRecord repeats, and the picture size. Reaching
/// min_spatial_segmentation_idc means reading the whole SPS up to the end of its VUI (§E.2.1):
/// scaling lists, reference picture sets and HRD parameters are stepped over field by field
/// (H265SequenceParameterSet+Syntax.swift).
struct H265SequenceParameterSet: Equatable, Sendable {
    /// sps_max_sub_layers_minus1 u(3), 0…6.
    var maxSubLayersMinus1: Int
    /// sps_temporal_id_nesting_flag.
    var temporalIDNesting: Bool
    var profileTierLevel: H265ProfileTierLevel
    /// chroma_format_idc: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    var chromaFormatIDC: UInt32
    var picWidthInLumaSamples: UInt32
    var picHeightInLumaSamples: UInt32
    /// conf_win_left/right/top/bottom_offset, in chroma sample units (0 without a window).
    var conformanceWindow: (left: UInt32, right: UInt32, top: UInt32, bottom: UInt32) = (0, 0, 0, 0)
    var bitDepthLumaMinus8: UInt32
    var bitDepthChromaMinus8: UInt32
    /// From the VUI's bitstream_restriction; nil when the SPS has no VUI or no restriction.
    var minSpatialSegmentationIDC: UInt32?

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.maxSubLayersMinus1 == rhs.maxSubLayersMinus1 && lhs.temporalIDNesting == rhs.temporalIDNesting
            && lhs.profileTierLevel == rhs.profileTierLevel && lhs.chromaFormatIDC == rhs.chromaFormatIDC
            && lhs.picWidthInLumaSamples == rhs.picWidthInLumaSamples
            && lhs.picHeightInLumaSamples == rhs.picHeightInLumaSamples
            && lhs.conformanceWindow == rhs.conformanceWindow && lhs.bitDepthLumaMinus8 == rhs.bitDepthLumaMinus8
            && lhs.bitDepthChromaMinus8 == rhs.bitDepthChromaMinus8
            && lhs.minSpatialSegmentationIDC == rhs.minSpatialSegmentationIDC
    }

    /// `nalUnit` is the whole SPS NAL unit, two header bytes included, no start code.
    init(nalUnit: [UInt8]) throws(FLVError) {
        var reader = try HEVCNALUnitType.sps.parameterSetReader(for: nalUnit)
        try reader.skip(4)  // sps_video_parameter_set_id
        maxSubLayersMinus1 = Int(try reader.bits(3))
        guard maxSubLayersMinus1 <= 6 else { throw reader.error("sps_max_sub_layers_minus1 \(maxSubLayersMinus1) > 6") }
        temporalIDNesting = try reader.bit() == 1
        profileTierLevel = try H265ProfileTierLevel(reader: &reader, maxNumSubLayersMinus1: maxSubLayersMinus1)
        let id = try reader.unsignedExpGolomb()  // sps_seq_parameter_set_id
        guard id <= 15 else { throw reader.error("sps_seq_parameter_set_id \(id) > 15") }
        chromaFormatIDC = try reader.unsignedExpGolomb()
        guard chromaFormatIDC <= 3 else { throw reader.error("chroma_format_idc \(chromaFormatIDC) > 3") }
        if chromaFormatIDC == 3 {
            try reader.skip(1)  // separate_colour_plane_flag
        }
        picWidthInLumaSamples = try reader.unsignedExpGolomb()
        picHeightInLumaSamples = try reader.unsignedExpGolomb()
        if try reader.bit() == 1 {  // conformance_window_flag
            conformanceWindow = (
                try reader.unsignedExpGolomb(), try reader.unsignedExpGolomb(), try reader.unsignedExpGolomb(),
                try reader.unsignedExpGolomb()
            )
        }
        bitDepthLumaMinus8 = try reader.unsignedExpGolomb()
        bitDepthChromaMinus8 = try reader.unsignedExpGolomb()
        guard bitDepthLumaMinus8 <= 8 else { throw reader.error("bit_depth_luma_minus8 \(bitDepthLumaMinus8) > 8") }
        guard bitDepthChromaMinus8 <= 8 else { throw reader.error("bit_depth_chroma_minus8 \(bitDepthChromaMinus8) > 8") }
        let log2MaxPicOrderCountLSBMinus4 = try reader.unsignedExpGolomb()
        guard log2MaxPicOrderCountLSBMinus4 <= 12 else {
            throw reader.error("log2_max_pic_order_cnt_lsb_minus4 \(log2MaxPicOrderCountLSBMinus4) > 12")
        }
        let orderingInfoForEverySubLayer = try reader.bit() == 1  // sps_sub_layer_ordering_info_present_flag
        for _ in (orderingInfoForEverySubLayer ? 0 : maxSubLayersMinus1)...maxSubLayersMinus1 {
            // sps_max_dec_pic_buffering_minus1, sps_max_num_reorder_pics, sps_max_latency_increase_plus1
            for _ in 0..<3 { _ = try reader.unsignedExpGolomb() }
        }
        // log2_min_luma_coding_block_size_minus3, log2_diff_max_min_luma_coding_block_size,
        // log2_min_luma_transform_block_size_minus2, log2_diff_max_min_luma_transform_block_size,
        // max_transform_hierarchy_depth_inter, max_transform_hierarchy_depth_intra
        for _ in 0..<6 { _ = try reader.unsignedExpGolomb() }
        if try reader.bit() == 1, try reader.bit() == 1 {  // scaling_list_enabled_flag, sps_scaling_list_data_present_flag
            try Self.skipScalingListData(&reader)
        }
        try reader.skip(2)  // amp_enabled_flag, sample_adaptive_offset_enabled_flag
        if try reader.bit() == 1 {  // pcm_enabled_flag
            try reader.skip(4 + 4)  // pcm_sample_bit_depth_luma_minus1, pcm_sample_bit_depth_chroma_minus1
            _ = try reader.unsignedExpGolomb()  // log2_min_pcm_luma_coding_block_size_minus3
            _ = try reader.unsignedExpGolomb()  // log2_diff_max_min_pcm_luma_coding_block_size
            try reader.skip(1)  // pcm_loop_filter_disabled_flag
        }
        try Self.skipShortTermReferencePictureSets(&reader)
        if try reader.bit() == 1 {  // long_term_ref_pics_present_flag
            let count = try reader.unsignedExpGolomb()  // num_long_term_ref_pics_sps
            guard count <= 32 else { throw reader.error("num_long_term_ref_pics_sps \(count) > 32") }
            // lt_ref_pic_poc_lsb_sps u(v) of log2_max_pic_order_cnt_lsb bits, used_by_curr_pic_lt_sps_flag
            try reader.skip(Int(count) * (Int(log2MaxPicOrderCountLSBMinus4) + 4 + 1))
        }
        try reader.skip(2)  // sps_temporal_mvp_enabled_flag, strong_intra_smoothing_enabled_flag
        if try reader.bit() == 1 {  // vui_parameters_present_flag
            minSpatialSegmentationIDC = try Self.minSpatialSegmentationFromVUI(&reader, maxSubLayersMinus1: maxSubLayersMinus1)
        }
    }

    /// The displayed size: the coded size less the conformance window (H.265 §7.4.3.2.1, whose
    /// offsets count in units of SubWidthC × SubHeightC).
    var displaySize: (width: Int, height: Int) {
        let subWidth: UInt32 = chromaFormatIDC == 1 || chromaFormatIDC == 2 ? 2 : 1
        let subHeight: UInt32 = chromaFormatIDC == 1 ? 2 : 1
        // In Int: each offset is a ue(v) up to 2^32 − 2, so their UInt32 sum could overflow.
        let width = Int(picWidthInLumaSamples) - Int(subWidth) * (Int(conformanceWindow.left) + Int(conformanceWindow.right))
        let height = Int(picHeightInLumaSamples) - Int(subHeight) * (Int(conformanceWindow.top) + Int(conformanceWindow.bottom))
        return (max(width, 0), max(height, 0))
    }
}
