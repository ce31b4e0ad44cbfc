/// Chunk streams and AMF0 values as a server writes them (RTMP spec 1.0 §5.3; AMF0 spec), for the
/// reader and scanner tests. Written from the specs, independently of the code under test.
enum TestChunks {
    /// A basic header for `format` and chunk stream `id` (1, 2 or 3 bytes, §5.3.1.1).
    static func basicHeader(format: UInt8, id: Int) -> [UInt8] {
        switch id {
        case 2...63: return [format << 6 | UInt8(id)]
        case 64...319: return [format << 6, UInt8(id - 64)]
        default: return [format << 6 | 1, UInt8((id - 64) & 0xFF), UInt8((id - 64) >> 8)]
        }
    }

    static func u24(_ value: Int) -> [UInt8] { [UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func u32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    /// One message as a type-0 chunk and type-3 continuations of `chunkSize` bytes.
    static func message(id: Int = 3, type: UInt8, streamID: UInt32 = 0, timestamp: Int = 0, body: [UInt8],
                        chunkSize: Int = 128, declaredLength: Int? = nil) -> [UInt8] {
        var out = basicHeader(format: 0, id: id) + u24(timestamp) + u24(declaredLength ?? body.count) + [type]
            + [UInt8(streamID & 0xFF), UInt8(streamID >> 8 & 0xFF), UInt8(streamID >> 16 & 0xFF), UInt8(streamID >> 24)]
        var offset = 0
        repeat {
            if offset > 0 { out += basicHeader(format: 3, id: id) }
            let end = min(body.count, offset + chunkSize)
            out += body[offset..<end]
            offset = end
        } while offset < body.count
        return out
    }

    static func setChunkSize(_ size: UInt32) -> [UInt8] { message(id: 2, type: 1, body: u32(size)) }

    // AMF0
    static func string(_ text: String) -> [UInt8] { [0x02, UInt8(text.utf8.count >> 8), UInt8(text.utf8.count & 0xFF)] + Array(text.utf8) }
    static func number(_ value: Double) -> [UInt8] { [0x00] + withUnsafeBytes(of: value.bitPattern.bigEndian, Array.init) }
    static func name(_ text: String) -> [UInt8] { [UInt8(text.utf8.count >> 8), UInt8(text.utf8.count & 0xFF)] + Array(text.utf8) }
    static func object(_ pairs: [(String, [UInt8])]) -> [UInt8] {
        [0x03] + pairs.flatMap { name($0.0) + $0.1 } + [0, 0, 0x09]
    }
    static let null: [UInt8] = [0x05]

    /// `{a: {a: … {}}}`, `depth` objects.
    static func nested(depth: Int) -> [UInt8] {
        [0x03] + [UInt8]([0x00, 0x01, 0x61, 0x03]).repeated(depth - 1) + [UInt8]([0, 0, 0x09]).repeated(depth)
    }

    /// An onStatus command as nginx-rtmp sends it (transaction 0, null, info object).
    static func onStatus(level: String = "status", code: String, description: String) -> [UInt8] {
        string("onStatus") + number(0) + null
            + object([("level", string(level)), ("code", string(code)), ("description", string(description))])
    }
}

extension Array {
    func repeated(_ count: Int) -> [Element] { Array((0..<Swift.max(0, count)).map { _ in self }.joined()) }
}
