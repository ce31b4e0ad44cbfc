import Media

/// The leading fields of an H.265 video parameter set (ITU-T H.265 §7.3.2.1) that an
/// HEVCDecoderConfigurationRecord takes: the sub-layer count and the profile, tier and level.
struct H265VideoParameterSet: Equatable, Sendable {
    /// vps_max_sub_layers_minus1 u(3), 0…6.
    var maxSubLayersMinus1: Int
    var temporalIDNesting: Bool
    var profileTierLevel: H265ProfileTierLevel

    /// `nalUnit` is the whole VPS NAL unit, two header bytes included, no start code.
    init(nalUnit: [UInt8]) throws(FLVError) {
        var reader = try HEVCNALUnitType.vps.parameterSetReader(for: nalUnit)
        // vps_video_parameter_set_id u(4), vps_base_layer_internal_flag, vps_base_layer_available_flag,
        // vps_max_layers_minus1 u(6).
        try reader.skip(4 + 1 + 1 + 6)
        maxSubLayersMinus1 = Int(try reader.bits(3))
        guard maxSubLayersMinus1 <= 6 else { throw reader.error("vps_max_sub_layers_minus1 \(maxSubLayersMinus1) > 6") }
        temporalIDNesting = try reader.bit() == 1
        try reader.skip(16)  // vps_reserved_0xffff_16bits
        profileTierLevel = try H265ProfileTierLevel(reader: &reader, maxNumSubLayersMinus1: maxSubLayersMinus1)
    }
}
