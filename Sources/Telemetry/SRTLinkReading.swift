/// An SRT output's link as libsrt reports it (`srt_bistats`, read by the output's statistics
/// thread): /status shows it, /metrics exports it (`camcast_output_srt_*`). The gauges are the
/// live connection's (zero while there is none); the counts run over the output's whole run,
/// every connection added up, so that `rate()` and `increase()` see no reset at a reconnect.
public struct SRTLinkReading: Sendable, Equatable, Codable {
    /// libsrt's smoothed round-trip time.
    public var roundTripSeconds: Double
    /// Media time between the oldest and the newest packet not acknowledged yet: what the link
    /// holds back; at SRT's latency packets start to come too late.
    public var sendBufferSeconds: Double
    /// Their payload.
    public var sendBufferBytes: Int
    /// libsrt's estimate of the link's capacity (from packet pairs), and what it sent over its
    /// last interval, retransmissions included.
    public var bandwidthBytesPerSecond: Double
    public var sendRateBytesPerSecond: Double
    /// Data packets sent once, sent again, reported lost by the receiver, and dropped as too late.
    public var sentPackets: Int
    public var retransmittedPackets: Int
    public var lostPackets: Int
    public var droppedPackets: Int

    public init(
        roundTripSeconds: Double = 0, sendBufferSeconds: Double = 0, sendBufferBytes: Int = 0, bandwidthBytesPerSecond: Double = 0,
        sendRateBytesPerSecond: Double = 0, sentPackets: Int = 0, retransmittedPackets: Int = 0, lostPackets: Int = 0,
        droppedPackets: Int = 0
    ) {
        self.roundTripSeconds = roundTripSeconds
        self.sendBufferSeconds = sendBufferSeconds
        self.sendBufferBytes = sendBufferBytes
        self.bandwidthBytesPerSecond = bandwidthBytesPerSecond
        self.sendRateBytesPerSecond = sendRateBytesPerSecond
        self.sentPackets = sentPackets
        self.retransmittedPackets = retransmittedPackets
        self.lostPackets = lostPackets
        self.droppedPackets = droppedPackets
    }

    /// The counts of `other` added to these; the gauges are `other`'s.
    func adding(counts other: SRTLinkReading) -> SRTLinkReading {
        var sum = other
        sum.sentPackets += sentPackets
        sum.retransmittedPackets += retransmittedPackets
        sum.lostPackets += lostPackets
        sum.droppedPackets += droppedPackets
        return sum
    }

    /// The counts alone, the gauges zero: a link with no connection now.
    var countsOnly: SRTLinkReading {
        SRTLinkReading(sentPackets: sentPackets, retransmittedPackets: retransmittedPackets, lostPackets: lostPackets, droppedPackets: droppedPackets)
    }
}

/// The run's SRT figures from one reading per sample of the live connection, whose counts start
/// at zero with each connection (libsrt's are per socket).
public struct SRTLinkTotals: Sendable {
    /// The counts of the connections that ended.
    private var ended = SRTLinkReading()
    /// The live connection's number and its last reading; nil between connections.
    private var live: (connection: Int, reading: SRTLinkReading)?

    public init() {}

    /// `reading` of connection `connection` (its counts since it was made).
    public mutating func record(_ reading: SRTLinkReading, connection: Int) {
        if let live, live.connection != connection { connectionEnded() }
        live = (connection, reading)
    }

    /// The live connection is gone: its counts stay in the totals, its gauges go to zero.
    public mutating func connectionEnded() {
        guard let live else { return }
        ended = ended.adding(counts: live.reading).countsOnly
        self.live = nil
    }

    public var reading: SRTLinkReading {
        live.map { ended.adding(counts: $0.reading) } ?? ended
    }
}
