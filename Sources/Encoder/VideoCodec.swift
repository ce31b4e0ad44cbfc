import Media

/// The video codec a session encodes with: H.264 through libx264 or H.265 through libx265.
/// Both run behind the same `EncoderSession`; only the backend differs.
public enum VideoCodec: String, Sendable, Hashable, CaseIterable {
    case h264
    case h265

    /// The codec-neutral packet codec the outputs see.
    public var packetCodec: MediaPacket.Codec {
        switch self {
        case .h264: .h264
        case .h265: .h265
        }
    }

    /// Whether its library reads planar I420 only (x265); x264 reads NV12 as well (its own layout),
    /// so the conversion stage should hand x265 I420 and x264 NV12 where it converts anyway.
    public var readsPlanarOnly: Bool { self == .h265 }

    /// The library behind it, for logs and errors.
    public var library: String {
        switch self {
        case .h264: "libx264"
        case .h265: "libx265"
        }
    }

    /// `nal_unit_type` of a NAL unit of this codec (header bytes first): the low five bits of
    /// H.264's one-byte header (§7.3.1), six bits after the forbidden bit of H.265's two-byte
    /// header (H.265 §7.3.1.2). Nil for an empty unit.
    public func nalUnitType(_ unit: [UInt8]) -> UInt8? {
        guard let header = unit.first else { return nil }
        switch self {
        case .h264: return header & 0x1F
        case .h265: return (header >> 1) & 0x3F
        }
    }

    /// The parameter-set NAL types in the order a decoder configuration lists them:
    /// SPS, PPS (H.264); VPS, SPS, PPS (H.265).
    var parameterSetTypes: [UInt8] {
        switch self {
        case .h264: [NALUnitType.sps.rawValue, NALUnitType.pps.rawValue]
        case .h265: [HEVCNALUnitType.vps.rawValue, HEVCNALUnitType.sps.rawValue, HEVCNALUnitType.pps.rawValue]
        }
    }

    /// Access unit delimiter: carries nothing an output needs.
    var accessUnitDelimiterType: UInt8 {
        switch self {
        case .h264: NALUnitType.aud.rawValue
        case .h265: HEVCNALUnitType.aud.rawValue
        }
    }

    /// The parameter sets among `units`, in configuration order, if every one of them is there.
    func parameterSets(in units: [[UInt8]]) -> [[UInt8]]? {
        var sets: [[UInt8]] = []
        for type in parameterSetTypes {
            guard let unit = units.first(where: { nalUnitType($0) == type }) else { return nil }
            sets.append(unit)
        }
        return sets
    }

    /// Whether `unit` travels out of band (parameter sets in the decoder configuration) or not at
    /// all (access unit delimiters), so a packet's units hold only what a picture needs.
    public func isOutOfBand(_ unit: [UInt8]) -> Bool {
        guard let type = nalUnitType(unit) else { return true }
        return type == accessUnitDelimiterType || parameterSetTypes.contains(type)
    }
}
