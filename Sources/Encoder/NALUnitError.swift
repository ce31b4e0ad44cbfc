/// Why bytes are not a NAL unit.
public enum NALUnitError: Error, Hashable, CustomStringConvertible {
    case empty
    /// forbidden_zero_bit (§7.4.1) is 1: the data is corrupt or misaligned.
    case forbiddenBitSet(header: UInt8)
    /// A reserved or unspecified `nal_unit_type`.
    case unknownType(UInt8)
    /// A length prefix of 0, which ISO/IEC 14496-15 does not allow.
    case zeroLength
    /// An Annex-B stream has data before its first start code.
    case missingStartCode
    /// The input ended inside a length prefix or a NAL unit.
    case truncated(needed: Int, available: Int)

    public var description: String {
        switch self {
        case .empty: "empty NAL unit"
        case .forbiddenBitSet(let header): "NAL header 0x\(String(header, radix: 16)) has forbidden_zero_bit set"
        case .unknownType(let type): "reserved or unspecified nal_unit_type \(type)"
        case .zeroLength: "NAL unit length prefix is 0"
        case .missingStartCode: "Annex-B data before the first start code"
        case .truncated(let needed, let available): "truncated NAL data: needed \(needed) bytes, have \(available)"
        }
    }
}
