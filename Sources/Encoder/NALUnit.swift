import Media

/// One H.264 NAL unit (ITU-T H.264 §7.3.1), without start code or length prefix.
///
/// `bytes` starts with the one-byte NAL header (forbidden_zero_bit, nal_ref_idc, nal_unit_type) and
/// keeps the emulation-prevention bytes, so it can be written to Annex-B or AVCC unchanged.
public struct NALUnit: Sendable, Hashable {
    public var type: NALUnitType
    public var bytes: [UInt8]

    /// Reads the NAL header of `bytes`, which must be one complete NAL unit.
    public init(bytes: [UInt8]) throws(NALUnitError) {
        guard let header = bytes.first else { throw .empty }
        guard header & 0x80 == 0 else { throw .forbiddenBitSet(header: header) }
        let rawType = header & 0x1F
        guard let type = NALUnitType(rawValue: rawType) else { throw .unknownType(rawType) }
        self.type = type
        self.bytes = bytes
    }

    /// `nal_ref_idc`: 0 means no other picture references this one.
    public var referenceIDC: UInt8 {
        (bytes[0] >> 5) & 0x03
    }
}
