/// One message for the publishing stream.
public struct RTMPMediaMessage: Sendable, Hashable {
    public var type: RTMPMessageType
    /// Milliseconds on the stream's timeline (the FLV tag timestamp). Must not go backwards
    /// within a connection (design.md invariant 2).
    public var timestamp: UInt32
    /// Exactly an FLV tag body. For `.dataAMF0`: AMF0 string "onMetaData" + ECMA array;
    /// the publisher adds "@setDataFrame" in front (once).
    public var payload: [UInt8]

    public init(type: RTMPMessageType, timestamp: UInt32, payload: [UInt8]) {
        self.type = type
        self.timestamp = timestamp
        self.payload = payload
    }
}
