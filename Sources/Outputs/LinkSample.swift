/// What one network output's live connection carries at one moment, as the bitrate controller
/// reads it: how much the peer has acknowledged, and how much media waits behind it. RTMP's come
/// from the kernel's tcp_info; SRT's from libsrt's statistics (`SRTLinkReader`).
package struct LinkSample: Sendable, Equatable {
    /// Which connection of the output this is (1 for the first, then one more per reconnect): a
    /// new connection's byte count starts again from zero.
    package var connection: Int
    /// Bytes the server has acknowledged over this connection (`tcpi_bytes_acked`): what the link
    /// really carried, chunk headers and TLS records included.
    package var bytesAcked: UInt64
    /// Media time (ms) between the oldest and the newest packet waiting in the send queue.
    package var queuedMilliseconds: Int64
    /// Bytes written to the socket that the kernel has not sent yet (`tcpi_notsent_bytes`, at
    /// most about TCP_NOTSENT_LOWAT): media that waits too, just past the send queue. Zero means
    /// the link took everything written so far, so a queue is the publisher thread's, not the
    /// link's.
    package var unsentBytes: Int
    /// Segments sent and not acknowledged yet (`tcpi_unacked`). A link that carries the stream
    /// with room to spare is found with none in flight most of the time; one near its capacity
    /// almost never (what it carries keeps it busy at least that fraction of the time).
    package var unackedSegments: Int
    /// The bytes sent once and not acknowledged (`TCPProgress.inFlightBytes`). On a link that
    /// has just become slower TCP can put far more in flight than the link carries (seen on
    /// tc-tbf at 400 kbit/s: 200 kB, mostly lost) while nothing stays unsent.
    package var inFlightBytes: Int
    /// Media a transport that keeps no unsent bytes of its own (SRT sends at once and waits for
    /// acknowledgements) reports waiting, in media time on the controller's scale: SRT's send
    /// buffer beyond one round trip, weighed against its latency budget (see `SRTLinkReader`).
    /// Above zero the link, not the encoder, sets the pace.
    package var transportWaitingMilliseconds: Int64

    package init(
        connection: Int, bytesAcked: UInt64, queuedMilliseconds: Int64, unsentBytes: Int, unackedSegments: Int = 0,
        inFlightBytes: Int = 0, transportWaitingMilliseconds: Int64 = 0
    ) {
        self.connection = connection
        self.bytesAcked = bytesAcked
        self.queuedMilliseconds = queuedMilliseconds
        self.unsentBytes = unsentBytes
        self.unackedSegments = unackedSegments
        self.inFlightBytes = inFlightBytes
        self.transportWaitingMilliseconds = transportWaitingMilliseconds
    }

    /// Media waits on the link itself: unsent in the kernel, or held by the transport.
    var linkHoldsMedia: Bool { unsentBytes > 0 || transportWaitingMilliseconds > 0 }

    /// Nothing in flight and nothing unsent: the link idles at this moment.
    var isIdle: Bool { unsentBytes == 0 && unackedSegments == 0 }
}
