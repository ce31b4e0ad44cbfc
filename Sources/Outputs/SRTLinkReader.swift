import SRT

/// Turns libsrt's statistics of one SRT output's connections into what adaptive bitrate and the
/// stall reading take (`LinkSample`, acknowledged bytes), so SRT outputs feed the one
/// `AdaptiveBitrateController` and the one `StallDetector` RTMP's do.
///
/// SRT in live mode sends each packet at once and keeps it until the receiver acknowledges it;
/// on a link slower than the stream it keeps sending (retransmissions too), and what piles up is
/// its send buffer. A packet older than the receiver's latency arrives too late to be played, and
/// the receiver drops it (and acknowledges past it, so the sender's buffer stops growing near
/// the latency). So the media waiting on the link is the send buffer's span past what a link that
/// keeps up holds (the connection's smallest round trip and two acknowledgement periods), weighed
/// against the latency budget: the controller lowers at `triggerMilliseconds` (a tenth of the
/// budget) and counts half the budget as `urgentMilliseconds` — it acts while the backlog grows
/// toward the latency, before packets come too late. Half, because a lost packet's second copy
/// must make the trip too, and because the receiver's giving up on packets acknowledges them,
/// so the buffer never grows past the latency however far the link falls behind (seen on tc-tbf
/// at half the stream's rate: 500 ms at most, while the receiver dropped a third of the packets).
///
/// The smallest round trip, not the current one: a queue in front of the link (tc-tbf's, a
/// modem's) delays the acknowledgements' way back as it delays the data, so the current RTT grows
/// with the backlog (seen on tc-tbf at 600 kbit/s: 400 ms RTT beside a 500 ms send buffer, which
/// read as no backlog at all while the receiver lost half the frames). libsrt measures its first
/// RTT only once media flows, when that queue may be full already, so half the handshake's time
/// (two round trips before any media) bounds it too.
///
/// A pure value: fed samples in order by one reader (the output's statistics thread).
package struct SRTLinkReader: Sendable {
    /// libsrt acknowledges every 10 ms (COMM_SYN_INTERVAL); a sample taken just before an
    /// acknowledgement finds up to two periods' worth unacknowledged on any link.
    static let acknowledgementAllowanceMilliseconds = 20
    /// libsrt's RTT before it measured one (INITIAL_RTT, 100 ms).
    static let initialEstimateMilliseconds = 100.0

    /// SRT's latency (`latency_ms`): how long the receiver waits for a packet.
    let latencyMilliseconds: Int
    private var connection = 0
    private var acknowledgedBytes = 0
    /// The smallest RTT libsrt reported on this connection.
    private var baseRoundTripMilliseconds = Double.infinity

    package init(latencyMilliseconds: Int) {
        self.latencyMilliseconds = max(1, latencyMilliseconds)
    }

    /// Media waiting on the link, on the controller's scale (see the type's comment), for a link
    /// whose smallest round trip is `baseRoundTrip` ms.
    func transportWaitingMilliseconds(_ statistics: SRTLinkStatistics, baseRoundTrip: Double) -> Int64 {
        let holds = Int(baseRoundTrip.rounded(.up)) + Self.acknowledgementAllowanceMilliseconds
        let excess = max(0, statistics.sendBufferMilliseconds - holds)
        return Int64(excess) * AdaptiveBitrateController.urgentMilliseconds * 2 / Int64(latencyMilliseconds)
    }

    /// One sample of connection `connection` (a new number starts its counts again). The counts
    /// never go back within a connection: `statistics` is read a moment after the handed counts,
    /// so a packet handed in between is in the buffer but not yet counted handed.
    package mutating func sample(_ statistics: SRTLinkStatistics, connection: Int, queuedMilliseconds: Int64) -> LinkSample {
        if connection != self.connection {
            self.connection = connection
            acknowledgedBytes = 0
            baseRoundTripMilliseconds = .infinity
        }
        // Until its first measurement libsrt reports its initial estimate, exactly 100 ms
        // (INITIAL_RTT): on a longer link that would read as a backlog for good.
        if statistics.roundTripMilliseconds > 0, statistics.roundTripMilliseconds != Self.initialEstimateMilliseconds {
            baseRoundTripMilliseconds = min(baseRoundTripMilliseconds, statistics.roundTripMilliseconds)
        }
        if statistics.handshakeMilliseconds > 0 {
            baseRoundTripMilliseconds = min(baseRoundTripMilliseconds, statistics.handshakeMilliseconds / 2)
        }
        acknowledgedBytes = max(acknowledgedBytes, statistics.acknowledgedBytes)
        return LinkSample(
            connection: connection, bytesAcked: UInt64(acknowledgedBytes), queuedMilliseconds: queuedMilliseconds, unsentBytes: 0,
            unackedSegments: statistics.sendBufferPackets, transportWaitingMilliseconds: transportWaitingMilliseconds(
                statistics, baseRoundTrip: baseRoundTripMilliseconds.isFinite ? baseRoundTripMilliseconds : 0))
    }

    /// Payload bytes the receiver acknowledged over this connection, as of the last sample (for
    /// the stall reading: data waiting and this not moving). Bytes, not packets: libsrt 1.5.1
    /// counts each of its too-late drops as one packet however many it dropped (its bytes are
    /// right), so packets handed less buffered less dropped grew on a black-holed link.
    package var acknowledged: UInt64 { UInt64(acknowledgedBytes) }
}
