#if canImport(Glibc)
import Glibc
#endif

/// How far the peer has taken what we sent, from the kernel's `struct tcp_info` (linux/tcp.h).
///
/// A peer that stops reading still ACKs until its receive window is full, and a black-holed link
/// ACKs nothing; in both cases `bytesAcked` stops growing while data is pending. A blocked
/// `send()` alone would notice only once our own send buffer is full too (seconds to minutes).
public struct TCPProgress: Sendable, Hashable {
    /// Bytes the peer has acknowledged over the connection's life (`tcpi_bytes_acked`).
    public var bytesAcked: UInt64
    /// Segments sent but not yet acknowledged (`tcpi_unacked`).
    public var unackedSegments: UInt32
    /// Bytes written by the application but not yet sent (`tcpi_notsent_bytes`).
    public var notSentBytes: UInt32
    /// Bytes sent and not acknowledged yet: what TCP holds in flight (`SIOCOUTQ` less
    /// `SIOCOUTQNSD`, snd_nxt − snd_una; 0 where the ioctls fail). Counted in bytes: neither
    /// `tcpi_unacked` × `tcpi_snd_mss` (segments are often far smaller than the MSS: on loopback
    /// one small segment read as 65 kB, more than a 200 kbit/s stream delivers in a second, which
    /// the adapter took for congestion) nor `tcpi_bytes_sent` − `tcpi_bytes_retrans` −
    /// `tcpi_bytes_acked` (on tc-tbf at 400 kbit/s it stayed 150 kB above the truth once losses began).
    public var inFlightBytes: Int

    public init(bytesAcked: UInt64, unackedSegments: UInt32, notSentBytes: UInt32, inFlightBytes: Int = 0) {
        self.bytesAcked = bytesAcked
        self.unackedSegments = unackedSegments
        self.notSentBytes = notSentBytes
        self.inFlightBytes = inFlightBytes
    }

    /// Something is waiting for the peer: unacknowledged or not yet sent.
    public var hasPendingData: Bool { unackedSegments > 0 || notSentBytes > 0 }

    /// Byte offsets in `struct tcp_info` (linux/tcp.h; the kernel only appends fields, so
    /// these are stable ABI). Glibc's older copy of the struct ends before `tcpi_bytes_acked`.
    enum Offset {
        static let unacked = 24          // __u32 tcpi_unacked
        static let bytesAcked = 120      // __u64 tcpi_bytes_acked (Linux 4.1)
        static let notSentBytes = 144    // __u32 tcpi_notsent_bytes (Linux 4.6)
        static let end = notSentBytes + 4
    }

    /// Reads the raw `struct tcp_info` bytes the kernel returned; nil if they are too short.
    init?(tcpInfo bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Offset.end else { return nil }
        bytesAcked = bytes.loadUnaligned(fromByteOffset: Offset.bytesAcked, as: UInt64.self)
        unackedSegments = bytes.loadUnaligned(fromByteOffset: Offset.unacked, as: UInt32.self)
        notSentBytes = bytes.loadUnaligned(fromByteOffset: Offset.notSentBytes, as: UInt32.self)
        inFlightBytes = 0
    }

    /// `getsockopt(TCP_INFO)` on a TCP socket; nil if it fails or the kernel is too old.
    static func read(fd: Int32) -> TCPProgress? {
        var buffer = [UInt8](repeating: 0, count: 256)
        var length = socklen_t(buffer.count)
        let rc = buffer.withUnsafeMutableBytes { raw in
            getsockopt(fd, Int32(IPPROTO_TCP), TCP_INFO, raw.baseAddress, &length)
        }
        guard rc == 0,
            var progress = buffer.withUnsafeBytes({ TCPProgress(tcpInfo: UnsafeRawBufferPointer(rebasing: $0.prefix(Int(length)))) })
        else { return nil }
        progress.inFlightBytes = inFlight(fd: fd)
        return progress
    }

    /// `SIOCOUTQ` (written, not acknowledged) less `SIOCOUTQNSD` (written, not sent): bytes in
    /// flight, exactly; 0 if either ioctl fails.
    static func inFlight(fd: Int32) -> Int {
        var queued: Int32 = 0
        var notSent: Int32 = 0
        guard ioctl(fd, Request.outQueue, &queued) == 0, ioctl(fd, Request.outQueueNotSent, &notSent) == 0 else { return 0 }
        return max(0, Int(queued) - Int(notSent))
    }

    /// linux/sockios.h (asm-generic: the same on every architecture Debian builds Camcast for).
    enum Request {
        static let outQueue: UInt = 0x5411           // SIOCOUTQ (= TIOCOUTQ)
        static let outQueueNotSent: UInt = 0x894B    // SIOCOUTQNSD
    }
}
