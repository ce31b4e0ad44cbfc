/// One FLV tag: a typed, timestamped body (FLV spec v10.1, annex E.4.1).
///
/// The body size is checked once, here, so that every tag that exists can be encoded.
public struct FLVTag: Equatable, Sendable {
    public let type: FLVTagType
    /// Milliseconds (a decoding timestamp for video).
    public let timestamp: UInt32
    public let body: [UInt8]

    /// Throws `tagTooLarge` if `body` does not fit the 24-bit DataSize field.
    public init(type: FLVTagType, timestamp: UInt32, body: [UInt8]) throws(FLVError) {
        guard body.count <= FLVTagHeader.maxDataSize else { throw .tagTooLarge(body.count) }
        self.type = type
        self.timestamp = timestamp
        self.body = body
    }

    /// For bodies the caller knows fit (fixed, tiny ones), so it need not handle an impossible error.
    init(uncheckedType type: FLVTagType, timestamp: UInt32, body: [UInt8]) {
        precondition(body.count <= FLVTagHeader.maxDataSize)
        self.type = type
        self.timestamp = timestamp
        self.body = body
    }

    public var header: FLVTagHeader {
        FLVTagHeader(type: type, dataSize: UInt32(body.count), timestamp: timestamp)
    }

    /// Header and body without the trailer: the value PreviousTagSize must hold after this tag.
    public var sizeWithoutTrailer: UInt32 { UInt32(FLVTagHeader.size + body.count) }

    /// The whole tag as files and librtmp's `RTMP_Write` want it: the 11-byte header, the body,
    /// then the 4-byte PreviousTagSize trailer (11 + body length).
    public func encoded() -> [UInt8] {
        var bytes = header.encoded()
        bytes.reserveCapacity(FLVTagHeader.size + body.count + 4)
        bytes.append(contentsOf: body)
        bytes.appendU32(sizeWithoutTrailer)
        return bytes
    }

    /// Parses one whole tag (header, body, trailer) from the start of `bytes` and checks the
    /// trailer; bytes after the trailer are ignored.
    public init(parsing bytes: some Collection<UInt8>) throws(FLVError) {
        var reader = ByteReader(Array(bytes))
        try self.init(reader: &reader)
    }

    init(reader: inout ByteReader) throws(FLVError) {
        let header = try FLVTagHeader(reader: &reader)
        let body = try reader.readBytes(Int(header.dataSize))
        let trailer = try reader.readU32()
        let expected = UInt32(FLVTagHeader.size) + header.dataSize
        guard trailer == expected else { throw .previousTagSizeMismatch(expected: expected, found: trailer) }
        try self.init(type: header.type, timestamp: header.timestamp, body: body)
    }
}
