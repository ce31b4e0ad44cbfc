internal import CGnuTLS
internal import CRTMP
import Media
#if canImport(Glibc)
import Glibc
#endif

/// The server's side of the connection as both Camcast's reader and librtmp see it: librtmp's
/// socket, read through librtmp's TLS session when there is one (rtmps://). Read from librtmp's
/// own fields each time, so the reader can never use a transport librtmp has already closed.
/// Send timeouts, TCP_USER_TIMEOUT, the tcp_info watch and `abort` stay on `socket` either way.
struct RTMPTransport {
    let socket: Int32
    /// The gnutls_session_t librtmp owns (it ends it in `RTMP_Close`); nil for plain rtmp://.
    let tls: OpaquePointer?

    init(_ rtmp: UnsafeMutablePointer<RTMP>) {
        socket = RTMP_Socket(rtmp)
        tls = crtmp_tls_session(rtmp).map(OpaquePointer.init)
    }

    /// A connection librtmp does not hold yet (rtmps://, before `crtmp_use_connection`).
    init(socket: Int32, tls: OpaquePointer?) {
        self.socket = socket
        self.tls = tls
    }

    /// Sends all of `bytes` (through the TLS session when there is one); false on any failure.
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent: Int = bytes[offset...].withUnsafeBytes { chunk in
                if let tls { return gnutls_record_send(tls, chunk.baseAddress, chunk.count) }
                return send(socket, chunk.baseAddress, chunk.count, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
            } else if tls != nil, sent == Int(GNUTLS_E_AGAIN) || sent == Int(GNUTLS_E_INTERRUPTED) {
                continue
            } else if tls == nil, sent < 0, errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    enum Read {
        case bytes(Int)
        /// Nothing after all (a false readable, a TLS record still incomplete): poll again.
        case again
        /// The server closed the connection.
        case closed
        case failed
    }

    /// Whether bytes wait already decrypted, which `poll` on the socket would not show.
    var hasPending: Bool {
        guard let tls else { return false }
        return gnutls_record_check_pending(tls) > 0
    }

    /// One read after `poll` said readable (or `hasPending`).
    func read(into buffer: inout [UInt8]) -> Read {
        guard let tls else {
            do throws(SystemCallError) {
                let count = try SystemCall.run("recv") { recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT)) }
                return count == 0 ? .closed : .bytes(count)
            } catch where error.errno == EAGAIN {
                return .again
            } catch {
                return .failed
            }
        }
        // A blocking read: it waits only for the rest of a record whose start arrived, bounded
        // by the receive timeout and the connect deadline's shutdown.
        let count = buffer.withUnsafeMutableBytes { gnutls_record_recv(tls, $0.baseAddress, $0.count) }
        switch Int32(clamping: count) {
        case 1...: return .bytes(count)
        case 0, GNUTLS_E_PREMATURE_TERMINATION: return .closed
        case GNUTLS_E_AGAIN, GNUTLS_E_INTERRUPTED, GNUTLS_E_TIMEDOUT: return .again
        default: return .failed
        }
    }
}
