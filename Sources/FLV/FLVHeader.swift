/// The 9-byte FLV file header (FLV spec v10.1, annex E.2):
/// Signature "FLV", Version 1, flags (TypeFlagsAudio = bit 2, TypeFlagsVideo = bit 0, the other
/// bits reserved 0) and DataOffset, the header's own length.
///
/// A file header is followed by PreviousTagSize0 (always 0) and then the tags; an RTMP stream has
/// no file header at all.
public struct FLVHeader: Equatable, Sendable {
    /// "FLV" in ASCII.
    public static let signature: [UInt8] = [0x46, 0x4C, 0x56]
    /// The only version there is.
    public static let version: UInt8 = 1
    /// The length of a version-1 header, the value of DataOffset we write.
    public static let size = 9

    public var hasAudio: Bool
    public var hasVideo: Bool
    /// Where the body starts. Always 9 when we write; a reader skips anything beyond 9.
    public var dataOffset: UInt32

    public init(hasAudio: Bool = false, hasVideo: Bool = true) {
        self.hasAudio = hasAudio
        self.hasVideo = hasVideo
        self.dataOffset = UInt32(Self.size)
    }

    public func encoded() -> [UInt8] {
        var bytes = Self.signature
        bytes.append(Self.version)
        bytes.append((hasAudio ? 0x04 : 0) | (hasVideo ? 0x01 : 0))
        bytes.appendU32(UInt32(Self.size))
        return bytes
    }

    /// Parses the first 9 bytes of `bytes`; anything after them is ignored.
    public init(parsing bytes: some Collection<UInt8>) throws(FLVError) {
        var reader = ByteReader(Array(bytes.prefix(Self.size)))
        try self.init(reader: &reader)
    }

    init(reader: inout ByteReader) throws(FLVError) {
        // Check the signature as far as it goes before complaining about length, so a wrong
        // file is reported as such even when it is short.
        let head = Array(reader.bytes[reader.offset...].prefix(3))
        guard head == Array(Self.signature.prefix(head.count)) else { throw .badSignature(head) }
        try reader.require(Self.size)
        let signature = try reader.readBytes(3)
        guard signature == Self.signature else { throw .badSignature(signature) }
        let version = try reader.readU8()
        guard version == Self.version else { throw .unsupportedVersion(version) }
        let flags = try reader.readU8()
        let dataOffset = try reader.readU32()
        guard dataOffset >= UInt32(Self.size) else { throw .badHeaderSize(dataOffset) }
        self.hasAudio = flags & 0x04 != 0
        self.hasVideo = flags & 0x01 != 0
        self.dataOffset = dataOffset
    }
}
