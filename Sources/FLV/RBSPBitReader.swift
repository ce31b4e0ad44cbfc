/// Reads the bit fields of an H.264 or H.265 RBSP (ITU-T H.264 §7.2, H.265 §7.2): fixed-width
/// `u(n)` and Exp-Golomb `ue(v)`/`se(v)` (H.264 §9.1, H.265 §9.2). Running off the end throws
/// (`malformedSPS` unless the caller names another error) rather than reading zeros, so a
/// truncated parameter set is reported, not misread.
struct RBSPBitReader {
    private let bytes: [UInt8]
    private var bitOffset = 0
    /// The error a malformed field becomes: which parameter set of which codec is being read.
    private let malformed: @Sendable (String) -> FLVError

    /// `nalPayload` is the NAL unit after its header (one byte in H.264, two in H.265);
    /// emulation-prevention bytes are removed here (H.264 §7.4.1, H.265 §7.4.2: in the NAL unit,
    /// 0x000003 stands for 0x0000).
    init(nalPayload: some Collection<UInt8>, malformed: @escaping @Sendable (String) -> FLVError = { .malformedSPS($0) }) {
        bytes = Self.removingEmulationPrevention(nalPayload)
        self.malformed = malformed
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
        guard bitOffset < bytes.count * 8 else { throw malformed("ends inside a field") }
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
            guard leadingZeros <= 31 else { throw malformed("Exp-Golomb code longer than 32 bits") }
        }
        let suffix = try bits(leadingZeros)
        return UInt32((UInt64(1) << leadingZeros) - 1 + UInt64(suffix))
    }

    /// `se(v)`: ue(v) k mapped to (−1)^(k+1) · ⌈k ÷ 2⌉ (H.265 §9.2.2): 1, −1, 2, −2, …
    mutating func signedExpGolomb() throws(FLVError) -> Int64 {
        let code = Int64(try unsignedExpGolomb())
        return code % 2 == 1 ? (code + 1) / 2 : -(code / 2)
    }

    /// Skips `count` bits (fields a caller only has to step over), throwing if they are not there.
    mutating func skip(_ count: Int) throws(FLVError) {
        guard count <= bitsLeft else { throw malformed("ends inside a field") }
        bitOffset += count
    }

    var bitsLeft: Int { bytes.count * 8 - bitOffset }

    /// A reader's own error for a value out of its field's range.
    func error(_ reason: String) -> FLVError { malformed(reason) }
}
