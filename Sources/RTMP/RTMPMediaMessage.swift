/// One message for the publishing stream.
public struct RTMPMediaMessage: Sendable, Hashable {
    /// Bytes a message must keep in front of its payload to be sent in place, without a copy:
    /// librtmp's RTMP_MAX_HEADER_SIZE, room for the longest chunk header it writes there.
    public static let requiredHeadroom = 18

    public var type: RTMPMessageType
    /// Milliseconds on the stream's timeline (the FLV tag timestamp). Must not go backwards
    /// within a connection (design.md invariant 2).
    public var timestamp: UInt32
    /// Bytes in front of the payload in `storage`, free for the chunk headers.
    public private(set) var headroom: Int
    /// `headroom` unspecified bytes, then the payload.
    private(set) var storage: [UInt8]

    /// Exactly an FLV tag body. For `.dataAMF0`: AMF0 string "onMetaData" + ECMA array;
    /// the publisher adds "@setDataFrame" in front (once). A copy when the message has headroom.
    public var payload: [UInt8] { headroom == 0 ? storage : Array(storage[headroom...]) }

    public var payloadCount: Int { storage.count - headroom }

    public init(type: RTMPMessageType, timestamp: UInt32, payload: [UInt8]) {
        self.init(type: type, timestamp: timestamp, storage: payload, headroom: 0)
    }

    /// A message whose payload follows `headroom` bytes of `storage`. With at least
    /// `requiredHeadroom` of them, and `storage` referenced by nothing else, the publisher sends
    /// the payload where it lies.
    public init(type: RTMPMessageType, timestamp: UInt32, storage: [UInt8], headroom: Int) {
        precondition(headroom >= 0 && headroom <= storage.count)
        self.type = type
        self.timestamp = timestamp
        self.storage = storage
        self.headroom = headroom
    }

    /// The storage, moved out of a message that ends here.
    consuming func takeStorage() -> [UInt8] { storage }

    /// Messages are equal when their payloads are, whatever headroom either keeps.
    public static func == (lhs: RTMPMediaMessage, rhs: RTMPMediaMessage) -> Bool {
        lhs.type == rhs.type && lhs.timestamp == rhs.timestamp
            && lhs.storage[lhs.headroom...].elementsEqual(rhs.storage[rhs.headroom...])
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(timestamp)
        for byte in storage[headroom...] { hasher.combine(byte) }
    }
}
