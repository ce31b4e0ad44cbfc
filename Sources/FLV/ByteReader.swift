/// A bounds-checked big-endian cursor over bytes; every read that would run past the end throws
/// `FLVError.truncated` instead of trapping, so no parser built on it can crash on short input.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { offset >= bytes.count }

    mutating func require(_ count: Int) throws(FLVError) {
        guard count <= remaining else { throw .truncated(needed: count, available: remaining) }
    }

    mutating func readU8() throws(FLVError) -> UInt8 {
        try require(1)
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readU16() throws(FLVError) -> UInt16 {
        UInt16(try readUInt(byteCount: 2))
    }

    mutating func readU24() throws(FLVError) -> UInt32 {
        UInt32(try readUInt(byteCount: 3))
    }

    mutating func readU32() throws(FLVError) -> UInt32 {
        UInt32(try readUInt(byteCount: 4))
    }

    mutating func readDouble() throws(FLVError) -> Double {
        Double(bitPattern: try readUInt(byteCount: 8))
    }

    mutating func readBytes(_ count: Int) throws(FLVError) -> [UInt8] {
        try require(count)
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func readRest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }

    private mutating func readUInt(byteCount: Int) throws(FLVError) -> UInt64 {
        try require(byteCount)
        var value: UInt64 = 0
        for index in offset..<offset + byteCount {
            value = value << 8 | UInt64(bytes[index])
        }
        offset += byteCount
        return value
    }
}
