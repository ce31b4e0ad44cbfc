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
    /// The size of a segment this connection sends (`tcpi_snd_mss`): with `unackedSegments`,
    /// about how many bytes are in flight.
    public var sendMSS: UInt32

    public init(bytesAcked: UInt64, unackedSegments: UInt32, notSentBytes: UInt32, sendMSS: UInt32 = 0) {
        self.bytesAcked = bytesAcked
        self.unackedSegments = unackedSegments
        self.notSentBytes = notSentBytes
        self.sendMSS = sendMSS
    }

    /// About how many bytes are sent and not acknowledged yet.
    public var inFlightBytes: Int { Int(unackedSegments) * Int(sendMSS) }

    /// Something is waiting for the peer: unacknowledged or not yet sent.
    public var hasPendingData: Bool { unackedSegments > 0 || notSentBytes > 0 }

    /// Byte offsets in `struct tcp_info` (linux/tcp.h; the kernel only appends fields, so
    /// these are stable ABI). Glibc's older copy of the struct ends before `tcpi_bytes_acked`.
    enum Offset {
        static let sendMSS = 16          // __u32 tcpi_snd_mss
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
        sendMSS = bytes.loadUnaligned(fromByteOffset: Offset.sendMSS, as: UInt32.self)
    }

    /// `getsockopt(TCP_INFO)` on a TCP socket; nil if it fails or the kernel is too old.
    static func read(fd: Int32) -> TCPProgress? {
        var buffer = [UInt8](repeating: 0, count: 256)
        var length = socklen_t(buffer.count)
        let rc = buffer.withUnsafeMutableBytes { raw in
            getsockopt(fd, Int32(IPPROTO_TCP), TCP_INFO, raw.baseAddress, &length)
        }
        guard rc == 0 else { return nil }
        return buffer.withUnsafeBytes { TCPProgress(tcpInfo: UnsafeRawBufferPointer(rebasing: $0.prefix(Int(length)))) }
    }
}
