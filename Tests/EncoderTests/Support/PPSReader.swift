/// Reads the first fields of a picture parameter set (H.264 §7.3.2.2), enough to see the entropy
/// coder. Emulation prevention cannot occur this early in a PPS (it needs two zero bytes).
enum PPSReader {
    struct Truncated: Error {}

    static func entropyCodingModeFlag(_ pps: [UInt8]) throws -> Bool {
        var reader = BitReader(bytes: Array(pps.dropFirst()))  // skip the NAL header
        _ = try reader.unsignedExpGolomb()  // pic_parameter_set_id
        _ = try reader.unsignedExpGolomb()  // seq_parameter_set_id
        return try reader.bit() == 1  // entropy_coding_mode_flag
    }

    struct BitReader {
        var bytes: [UInt8]
        var position = 0

        mutating func bit() throws -> Int {
            guard position / 8 < bytes.count else { throw Truncated() }
            defer { position += 1 }
            return Int(bytes[position / 8] >> (7 - UInt8(position % 8))) & 1
        }

        /// ue(v), §9.1.
        mutating func unsignedExpGolomb() throws -> Int {
            var zeros = 0
            while try bit() == 0 { zeros += 1 }
            var value = 0
            for _ in 0..<zeros { value = value << 1 | (try bit()) }
            return (1 << zeros) - 1 + value
        }
    }
}
