internal import CSRT
import Synchronization

extension SRTCaller {
    /// libsrt's figures for the live connection, from any thread (libsrt locks for itself); nil
    /// before the connect, after the close, or when libsrt could not read them this time. The
    /// socket's lock is held only to copy its id, not across the call. libsrt 1.5.1 counts each
    /// of its too-late drops as one packet (`dropped.count(bytes)`) however many it dropped; the
    /// bytes are right, so the packets are at least those bytes over the largest message.
    public func statistics() -> SRTLinkStatistics? {
        guard let id = liveSocket else { return nil }
        // Handed first: the buffer libsrt then reports holds nothing handed after this.
        let packets = handedPackets.load(ordering: .acquiring)
        let bytes = handedBytes.load(ordering: .acquiring)
        var raw = csrt_link_statistics()
        guard csrt_link_statistics(id, &raw) == 0 else { return nil }
        return SRTLinkStatistics(
            handedPackets: packets, handedBytes: bytes,
            handshakeMilliseconds: Double(handshakeNanoseconds.load(ordering: .relaxed)) / 1e6, roundTripMilliseconds: raw.rtt_ms, bandwidthMbps: raw.bandwidth_mbps,
            sendRateMbps: raw.send_rate_mbps, sendBufferMilliseconds: Int(raw.send_buffer_ms),
            sendBufferPackets: Int(raw.send_buffer_packets), sendBufferBytes: Int(raw.send_buffer_bytes),
            availableSendBufferBytes: Int(raw.available_send_buffer_bytes), sentPackets: Int(raw.sent_packets),
            retransmittedPackets: Int(raw.retransmitted_packets), lostPackets: Int(raw.lost_packets),
            droppedPackets: max(Int(raw.dropped_packets), (Int(raw.dropped_bytes) + Self.messageSize - 1) / Self.messageSize),
            droppedBytes: Int(raw.dropped_bytes))
    }
}
