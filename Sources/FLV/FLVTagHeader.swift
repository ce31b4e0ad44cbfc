/// The 11-byte header in front of every FLV tag (FLV spec v10.1, annex E.4.1):
///
/// | bits | field |
/// |---|---|
/// | 2 | Reserved, 0 |
/// | 1 | Filter (1 = encrypted; we never write it and reject it when reading) |
/// | 5 | TagType |
/// | 24 | DataSize: length of the body after this header |
/// | 24 | Timestamp: low 24 bits of the time in milliseconds |
/// | 8 | TimestampExtended: high 8 bits, making a 32-bit time |
/// | 24 | StreamID, always 0 |
public struct FLVTagHeader: Equatable, Sendable {
    public static let size = 11
    /// The largest body DataSize can describe.
    public static let maxDataSize = 0xFF_FFFF

    public var type: FLVTagType
    /// Body length in bytes; at most `maxDataSize`.
    public var dataSize: UInt32
    /// Milliseconds; values above 0xFFFFFF use the TimestampExtended byte.
    public var timestamp: UInt32

    public init(type: FLVTagType, dataSize: UInt32, timestamp: UInt32) {
        self.type = type
        self.dataSize = dataSize
        self.timestamp = timestamp
    }

    /// The 11 bytes; `dataSize` is written as its low 24 bits (`FLVTag` guarantees it fits).
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.size)
        bytes.append(type.rawValue)
        bytes.appendU24(dataSize)
        bytes.appendU24(timestamp)
        bytes.append(UInt8(truncatingIfNeeded: timestamp >> 24))
        bytes.appendU24(0)
        return bytes
    }

    public init(parsing bytes: some Collection<UInt8>) throws(FLVError) {
        var reader = ByteReader(Array(bytes.prefix(Self.size)))
        try self.init(reader: &reader)
    }

    init(reader: inout ByteReader) throws(FLVError) {
        try reader.require(Self.size)
        let typeByte = try reader.readU8()
        guard typeByte & 0x20 == 0 else { throw .encryptedTag }
        // The two reserved bits are ignored, as the spec asks of readers.
        guard let type = FLVTagType(rawValue: typeByte & 0x1F) else { throw .unknownTagType(typeByte & 0x1F) }
        let dataSize = try reader.readU24()
        let low = try reader.readU24()
        let high = try reader.readU8()
        let streamID = try reader.readU24()
        guard streamID == 0 else { throw .nonZeroStreamID(streamID) }
        self.init(type: type, dataSize: dataSize, timestamp: UInt32(high) << 24 | low)
    }
}
