/// Reads the bit fields of an H.264 RBSP (ITU-T H.264 §7.2): fixed-width `u(n)` and Exp-Golomb
/// `ue(v)` (§9.1). Running off the end throws `malformedSPS` rather than reading zeros, so a
/// truncated SPS is reported, not misread.
struct RBSPBitReader {
    private let bytes: [UInt8]
    private var bitOffset = 0

    /// `nalPayload` is the NAL unit after its header byte; emulation-prevention bytes are
    /// removed here (§7.4.1: in the NAL unit, 0x000003 stands for 0x0000).
    init(nalPayload: some Collection<UInt8>) {
        bytes = Self.removingEmulationPrevention(nalPayload)
    }

    static func removingEmulationPrevention(_ payload: some Collection<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(payload.count)
        var zeros = 0
        for byte in payload {
            if zeros >= 2 && byte == 0x03 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            output.append(byte)
        }
        return output
    }

    mutating func bit() throws(FLVError) -> UInt32 {
        guard bitOffset < bytes.count * 8 else { throw .malformedSPS("ends inside a field") }
        defer { bitOffset += 1 }
        return UInt32(bytes[bitOffset / 8] >> (7 - UInt8(bitOffset % 8)) & 1)
    }

    /// `u(n)`, n ≤ 32.
    mutating func bits(_ count: Int) throws(FLVError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count {
            value = value << 1 | (try bit())
        }
        return value
    }

    /// `ue(v)`: leading zeros z, a 1, then z bits; value 2^z − 1 + those bits. More than 31
    /// leading zeros cannot be a valid 32-bit code.
    mutating func unsignedExpGolomb() throws(FLVError) -> UInt32 {
        var leadingZeros = 0
        while try bit() == 0 {
            leadingZeros += 1
            guard leadingZeros <= 31 else { throw .malformedSPS("Exp-Golomb code longer than 32 bits") }
        }
        let suffix = try bits(leadingZeros)
        return UInt32((UInt64(1) << leadingZeros) - 1 + UInt64(suffix))
    }
}
