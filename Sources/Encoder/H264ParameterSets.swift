/// The SPS and PPS a decoder needs before the first picture (H.264 §7.3.2.1, §7.3.2.2).
///
/// Both are whole NAL units (header byte included), as an AVCDecoderConfigurationRecord
/// (ISO/IEC 14496-15 §5.3.3.1) and an Annex-B stream carry them.
public struct H264ParameterSets: Sendable, Hashable {
    public var sps: [UInt8]
    public var pps: [UInt8]

    public init(sps: [UInt8], pps: [UInt8]) {
        self.sps = sps
        self.pps = pps
    }

    /// `profile_idc` (SPS byte 1): 66 Baseline, 77 Main, 100 High. Becomes AVCProfileIndication.
    public var profileIDC: UInt8? { sps.count > 3 ? sps[1] : nil }
    /// The constraint_set flags byte (SPS byte 2). Becomes profile_compatibility.
    public var profileCompatibility: UInt8? { sps.count > 3 ? sps[2] : nil }
    /// `level_idc` (SPS byte 3), ten times the level. Becomes AVCLevelIndication.
    public var levelIDC: UInt8? { sps.count > 3 ? sps[3] : nil }
}
