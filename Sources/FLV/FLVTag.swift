/// One FLV tag: a typed, timestamped body (FLV spec v10.1, annex E.4.1).
///
/// The body size is checked once, here, so that every tag that exists can be encoded.
public struct FLVTag: Equatable, Sendable {
    public let type: FLVTagType
    /// Milliseconds (a decoding timestamp for video).
    public let timestamp: UInt32
    /// Bytes reserved in front of the body, for a sender that writes its own headers there
    /// (RTMP's chunk headers, so the body need not be copied into a message of its own, issue 26);
    /// 0 for tags that go to files.
    public private(set) var headroom: Int
    /// `headroom` unspecified bytes, then the body.
    private var storage: [UInt8]

    /// Exactly the tag body. For a tag with headroom this is a copy: senders take the storage
    /// (`takeStorage()`), counters read `bodyCount`.
    public var body: [UInt8] { headroom == 0 ? storage : Array(storage[headroom...]) }

    public var bodyCount: Int { storage.count - headroom }

    /// Throws `tagTooLarge` if `body` does not fit the 24-bit DataSize field.
    public init(type: FLVTagType, timestamp: UInt32, body: [UInt8]) throws(FLVError) {
        try self.init(type: type, timestamp: timestamp, storage: body, headroom: 0)
    }

    /// A tag whose body follows `headroom` bytes of `storage`.
    init(type: FLVTagType, timestamp: UInt32, storage: [UInt8], headroom: Int) throws(FLVError) {
        precondition(headroom >= 0 && headroom <= storage.count)
        guard storage.count - headroom <= FLVTagHeader.maxDataSize else { throw .tagTooLarge(storage.count - headroom) }
        self.type = type
        self.timestamp = timestamp
        self.storage = storage
        self.headroom = headroom
    }

    /// For bodies the caller knows fit (fixed, tiny ones), so it need not handle an impossible error.
    init(uncheckedType type: FLVTagType, timestamp: UInt32, body: [UInt8]) {
        precondition(body.count <= FLVTagHeader.maxDataSize)
        self.type = type
        self.timestamp = timestamp
        self.storage = body
        self.headroom = 0
    }

    /// Moves the storage (headroom, then body) out, leaving the tag's body empty: the sender may
    /// then own the only reference and write into it without a copy-on-write copy.
    public mutating func takeStorage() -> (bytes: [UInt8], headroom: Int) {
        let taken = (bytes: storage, headroom: headroom)
        storage = []
        headroom = 0
        return taken
    }

    /// Tags are equal when their bodies are, whatever headroom either keeps.
    public static func == (lhs: FLVTag, rhs: FLVTag) -> Bool {
        lhs.type == rhs.type && lhs.timestamp == rhs.timestamp
            && lhs.storage[lhs.headroom...].elementsEqual(rhs.storage[rhs.headroom...])
    }

    public var header: FLVTagHeader {
        FLVTagHeader(type: type, dataSize: UInt32(bodyCount), timestamp: timestamp)
    }

    /// Header and body without the trailer: the value PreviousTagSize must hold after this tag.
    public var sizeWithoutTrailer: UInt32 { UInt32(FLVTagHeader.size + bodyCount) }

    /// The whole tag as files and librtmp's `RTMP_Write` want it: the 11-byte header, the body,
    /// then the 4-byte PreviousTagSize trailer (11 + body length).
    public func encoded() -> [UInt8] {
        var bytes = header.encoded()
        bytes.reserveCapacity(FLVTagHeader.size + bodyCount + 4)
        bytes.append(contentsOf: storage[headroom...])
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
