/// The general part of an H.265 profile_tier_level() (ITU-T H.265 §7.3.3), which a VPS and an
/// SPS both carry and an HEVCDecoderConfigurationRecord repeats. Sub-layer fields are read past.
struct H265ProfileTierLevel: Equatable, Sendable {
    /// general_profile_space u(2).
    var profileSpace: UInt8
    /// general_tier_flag u(1): 0 Main tier, 1 High tier.
    var tierFlag: UInt8
    /// general_profile_idc u(5): 1 Main, 2 Main 10, 3 Main Still Picture, 4 range extensions, …
    var profileIDC: UInt8
    /// general_profile_compatibility_flag[0…31], flag 0 in the top bit.
    var profileCompatibilityFlags: UInt32
    /// The 48 bits from general_progressive_source_flag to general_inbld_flag/reserved bit.
    var constraintIndicatorFlags: UInt64
    /// general_level_idc u(8): 30 × the level (93 = level 3.1).
    var levelIDC: UInt8

    /// Reads profile_tier_level(1, maxNumSubLayersMinus1).
    init(reader: inout RBSPBitReader, maxNumSubLayersMinus1: Int) throws(FLVError) {
        profileSpace = UInt8(try reader.bits(2))
        tierFlag = UInt8(try reader.bits(1))
        profileIDC = UInt8(try reader.bits(5))
        profileCompatibilityFlags = try reader.bits(32)
        constraintIndicatorFlags = UInt64(try reader.bits(32)) << 16 | UInt64(try reader.bits(16))
        levelIDC = UInt8(try reader.bits(8))
        var profilePresent: [Bool] = []
        var levelPresent: [Bool] = []
        for _ in 0..<maxNumSubLayersMinus1 {
            profilePresent.append(try reader.bit() == 1)
            levelPresent.append(try reader.bit() == 1)
        }
        if maxNumSubLayersMinus1 > 0 {
            try reader.skip(2 * (8 - maxNumSubLayersMinus1))  // reserved_zero_2bits
        }
        for index in 0..<maxNumSubLayersMinus1 {
            // sub_layer profile space, tier, idc, 32 compatibility flags, 48 constraint bits.
            if profilePresent[index] { try reader.skip(2 + 1 + 5 + 32 + 48) }
            if levelPresent[index] { try reader.skip(8) }  // sub_layer_level_idc
        }
    }
}
