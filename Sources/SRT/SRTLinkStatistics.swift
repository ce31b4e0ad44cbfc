/// What libsrt says of one live connection at one moment (`srt_bistats`, instantaneous send-buffer
/// figures), beside what this caller handed to it, which libsrt does not count itself.
///
/// Counts are over the connection's life (a new connection starts from zero); bytes are payload
/// (MPEG-TS), without SRT's and UDP's headers.
public struct SRTLinkStatistics: Sendable, Equatable {
    /// Messages (packets) and payload bytes handed to `srt_sendmsg2` over this connection, read
    /// before libsrt's figures: whatever those show was handed by then.
    public var handedPackets: Int
    public var handedBytes: Int
    /// How long the connect's handshake took: two round trips (induction, conclusion) over the
    /// link before any media queued on it.
    public var handshakeMilliseconds: Double
    /// libsrt's smoothed round-trip time (msRTT).
    public var roundTripMilliseconds: Double
    /// libsrt's estimate of the link's capacity (mbpsBandwidth, from packet pairs).
    public var bandwidthMbps: Double
    /// What it sent over the last interval, retransmissions included (mbpsSendRate).
    public var sendRateMbps: Double
    /// Packets handed and not acknowledged yet (sent or still to be sent): how many, their payload,
    /// and the media time between the oldest and the newest (msSndBuf, pktSndBuf, byteSndBuf).
    public var sendBufferMilliseconds: Int
    public var sendBufferPackets: Int
    public var sendBufferBytes: Int
    /// Room left in the send buffer (byteAvailSndBuf).
    public var availableSendBufferBytes: Int
    /// Data packets sent once (pktSentUniqueTotal), sent again (pktRetransTotal), reported lost by
    /// the receiver (pktSndLossTotal), and dropped unsent or unacknowledged because they were too
    /// late for the receiver's latency (pktSndDropTotal, with their payload bytes; libsrt 1.5.1
    /// counts one packet per drop however many it dropped, so `droppedPackets` is at least the
    /// payload over the largest message).
    public var sentPackets: Int
    public var retransmittedPackets: Int
    public var lostPackets: Int
    public var droppedPackets: Int
    public var droppedBytes: Int

    public init(
        handedPackets: Int = 0, handedBytes: Int = 0, handshakeMilliseconds: Double = 0, roundTripMilliseconds: Double = 0, bandwidthMbps: Double = 0,
        sendRateMbps: Double = 0, sendBufferMilliseconds: Int = 0, sendBufferPackets: Int = 0, sendBufferBytes: Int = 0,
        availableSendBufferBytes: Int = 0, sentPackets: Int = 0, retransmittedPackets: Int = 0, lostPackets: Int = 0,
        droppedPackets: Int = 0, droppedBytes: Int = 0
    ) {
        self.handedPackets = handedPackets
        self.handedBytes = handedBytes
        self.handshakeMilliseconds = handshakeMilliseconds
        self.roundTripMilliseconds = roundTripMilliseconds
        self.bandwidthMbps = bandwidthMbps
        self.sendRateMbps = sendRateMbps
        self.sendBufferMilliseconds = sendBufferMilliseconds
        self.sendBufferPackets = sendBufferPackets
        self.sendBufferBytes = sendBufferBytes
        self.availableSendBufferBytes = availableSendBufferBytes
        self.sentPackets = sentPackets
        self.retransmittedPackets = retransmittedPackets
        self.lostPackets = lostPackets
        self.droppedPackets = droppedPackets
        self.droppedBytes = droppedBytes
    }

    /// Payload bytes the receiver acknowledged: handed, and neither still buffered nor dropped.
    /// libsrt takes a dropped packet out of its buffer as if acknowledged; here it is not.
    public var acknowledgedBytes: Int { max(0, handedBytes - sendBufferBytes - droppedBytes) }
}
