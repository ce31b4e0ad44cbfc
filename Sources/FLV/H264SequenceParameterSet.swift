/// The leading fields of an H.264 sequence parameter set (ITU-T H.264 §7.3.2.1.1) that an
/// AVCDecoderConfigurationRecord repeats: profile, constraint flags, level and, for the profiles
/// that carry them, chroma format and bit depths.
struct H264SequenceParameterSet: Equatable {
    /// nal_unit_type of an SPS (H.264 Table 7-1).
    static let nalUnitType: UInt8 = 7
    /// Profiles whose SPS has chroma_format_idc and bit depths (H.264 §7.3.2.1.1).
    static let profilesWithChromaInfo: Set<UInt8> = [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]

    var profileIDC: UInt8
    /// constraint_set0..5 flags and the two reserved zero bits, as one byte.
    var constraintFlags: UInt8
    var levelIDC: UInt8
    var seqParameterSetID: UInt32
    /// 1 (4:2:0) unless the profile signals otherwise.
    var chromaFormatIDC: UInt32 = 1
    var bitDepthLumaMinus8: UInt32 = 0
    var bitDepthChromaMinus8: UInt32 = 0

    /// `nalUnit` is the whole SPS NAL unit (header byte included, no start code).
    init(nalUnit: [UInt8]) throws(FLVError) {
        guard nalUnit.count >= 4 else { throw .spsTooShort(length: nalUnit.count) }
        let type = nalUnit[0] & 0x1F
        guard type == Self.nalUnitType else { throw .notAnSPS(nalUnitType: type) }
        var reader = RBSPBitReader(nalPayload: nalUnit.dropFirst())
        profileIDC = UInt8(try reader.bits(8))
        constraintFlags = UInt8(try reader.bits(8))
        levelIDC = UInt8(try reader.bits(8))
        seqParameterSetID = try reader.unsignedExpGolomb()
        guard seqParameterSetID <= 31 else { throw .malformedSPS("seq_parameter_set_id \(seqParameterSetID) > 31") }
        guard Self.profilesWithChromaInfo.contains(profileIDC) else { return }
        chromaFormatIDC = try reader.unsignedExpGolomb()
        guard chromaFormatIDC <= 3 else { throw .malformedSPS("chroma_format_idc \(chromaFormatIDC) > 3") }
        if chromaFormatIDC == 3 {
            _ = try reader.bit()  // separate_colour_plane_flag
        }
        bitDepthLumaMinus8 = try reader.unsignedExpGolomb()
        bitDepthChromaMinus8 = try reader.unsignedExpGolomb()
        guard bitDepthLumaMinus8 <= 6 else { throw .malformedSPS("bit_depth_luma_minus8 \(bitDepthLumaMinus8) > 6") }
        guard bitDepthChromaMinus8 <= 6 else {
            throw .malformedSPS("bit_depth_chroma_minus8 \(bitDepthChromaMinus8) > 6")
        }
    }
}
