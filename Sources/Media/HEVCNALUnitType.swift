/// `nal_unit_type` of an H.265 NAL unit (ITU-T H.265 §7.4.2.2, Table 7-1): the six bits after the
/// forbidden_zero_bit of the two-byte header. Only the types an encoder's stream carries and a
/// muxer or a decoder configuration record must tell apart have a case. The one set of H.265 NAL
/// unit types: the encoders, the Annex-B writer and FLV's HEVC configuration record all use it.
public enum HEVCNALUnitType: UInt8, Sendable, Hashable, CaseIterable {
    /// Trailing picture, non-reference / reference (x265's P pictures).
    case trailN = 0
    case trailR = 1
    case blaWLP = 16
    case blaWRADL = 17
    case blaNLP = 18
    /// IDR picture (with / without leading pictures): decoding starts here, nothing before is referenced.
    case idrWRADL = 19
    case idrNLP = 20
    /// Clean random access: an open-GOP keyframe (leading pictures may reference the previous GOP).
    case cra = 21
    case vps = 32
    case sps = 33
    case pps = 34
    case aud = 35
    case endOfSequence = 36
    case endOfBitstream = 37
    case fillerData = 38
    case prefixSEI = 39
    case suffixSEI = 40

    /// The type of a NAL unit (header bytes first); nil if empty or a type without a case.
    public init?(unit: some Collection<UInt8>) {
        guard let type = Self.rawType(of: unit) else { return nil }
        self.init(rawValue: type)
    }

    /// The six-bit type field of a NAL unit (header included), also for types without a case;
    /// nil for an empty one.
    public static func rawType(of unit: some Collection<UInt8>) -> UInt8? {
        unit.first.map { $0 >> 1 & 0x3F }
    }

    /// The short name the H.265 spec uses for the parameter sets and SEI ("VPS", "SPS", "PPS",
    /// "SEI"); the case name otherwise.
    public var name: String {
        switch self {
        case .vps: "VPS"
        case .sps: "SPS"
        case .pps: "PPS"
        case .prefixSEI, .suffixSEI: "SEI"
        default: "\(self)"
        }
    }

    /// IDR: a keyframe a closed GOP starts with.
    public var isIDR: Bool { self == .idrWRADL || self == .idrNLP }

    /// Intra random access point (BLA, IDR, CRA; 16…23): the pictures an Annex-B file puts the
    /// VPS/SPS/PPS in front of.
    public var isIRAP: Bool { (16...23).contains(rawValue) }
}
