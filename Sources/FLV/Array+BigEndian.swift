/// Big-endian appends: every multi-byte integer in FLV, AMF0 and ISO/IEC 14496-15 is big-endian.
extension Array where Element == UInt8 {
    mutating func appendU16(_ value: UInt16) {
        append(UInt8(value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }

    /// The low 24 bits of `value` (FLV DataSize, Timestamp and CompositionTime fields).
    mutating func appendU24(_ value: UInt32) {
        append(UInt8(truncatingIfNeeded: value >> 16))
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }

    mutating func appendU32(_ value: UInt32) {
        append(UInt8(value >> 24))
        appendU24(value)
    }

    mutating func appendDouble(_ value: Double) {
        let bits = value.bitPattern
        for shift in stride(from: 56, through: 0, by: -8) {
            append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
    }
}
