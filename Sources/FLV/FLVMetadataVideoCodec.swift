/// What onMetaData's `videocodecid` names: a legacy CodecID (FLV spec v10.1 annex E.4.3.1) or,
/// since Enhanced RTMP v1 ("Enhancing onMetaData"), a video FourCC as a number.
public enum FLVMetadataVideoCodec: Equatable, Sendable {
    case codecID(FLVVideoCodecID)
    case fourCC(FLVVideoFourCC)

    /// The number written: 7 for AVC, 1752589105 ('hvc1') for HEVC.
    public var metadataValue: Double {
        switch self {
        case .codecID(let id): Double(id.rawValue)
        case .fourCC(let fourCC): fourCC.metadataValue
        }
    }

    /// The codec a `videocodecid` number names, or nil for a number that is not a whole known
    /// CodecID or FourCC. CodecIDs are four bits and FourCCs are printable ASCII, so the two
    /// ranges cannot collide.
    public init?(metadataValue value: Double) {
        guard value.isFinite, value >= 0, value <= Double(UInt32.max), value.rounded() == value else { return nil }
        let number = UInt32(value)
        if number <= 0xFF, let id = FLVVideoCodecID(rawValue: UInt8(number)) {
            self = .codecID(id)
        } else if let fourCC = FLVVideoFourCC(rawValue: number) {
            self = .fourCC(fourCC)
        } else {
            return nil
        }
    }
}
