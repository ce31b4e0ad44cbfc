internal import CRTMP
import Media
#if canImport(Glibc)
import Glibc
#endif

/// rtmps://: the RTMP handshake runs through Camcast's own reader, not librtmp's.
///
/// Why: librtmp's `RTMPSockBuf_Fill` treats any return of `gnutls_record_recv` but -1 as a byte
/// count, and a TLS 1.3 server's NewSessionTicket makes `gnutls_record_recv` return
/// GNUTLS_E_AGAIN (-28) even on a blocking socket (seen against stunnel 5.68/OpenSSL 3): librtmp's
/// handshake failed on the first read. So Camcast sends C0 C1, reads S0 S1 S2 and sends C2 through
/// the session itself (`RTMPTransport`, which takes AGAIN as "read again"), then lets
/// `RTMP_Connect1` run its own handshake against a stand-in (`crtmp_connect_after_handshake`)
/// and forwards what librtmp wrote after it — the connect command — through the session. From
/// then on librtmp writes to the real connection; it never reads from it.
extension RTMPPublisher {
    static let handshakeSize = 1 + 1536

    /// Returns the server's bytes that followed S2 (for the message reader).
    func connectOverTLS(socket fd: Int32, tls: OpaquePointer, deadline: ContinuousClock.Instant) throws(RTMPError) -> [UInt8] {
        let transport = RTMPTransport(socket: fd, tls: tls)
        func fail(_ kind: RTMPError.Kind) -> RTMPError {
            TLSSession.discard(tls)
            Glibc.close(fd)
            return error(kind)
        }
        // C0 C1 (RTMP spec 1.0 §5.2.2-3): version 3, time 0, zero, 1528 random bytes.
        var c0c1 = [UInt8(3)] + [UInt8](repeating: 0, count: 8)
        c0c1 += (0..<1528).map { _ in UInt8.random(in: 0...255) }
        guard transport.write(c0c1) else { throw fail(.handshakeFailed) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while answer.count < Self.handshakeSize + 1536 {
            if !transport.hasPending {
                let readable: Bool
                do throws(SystemCallError) {
                    readable = try SystemCall.poll(fd, events: POLLIN, until: deadline)
                } catch {
                    throw fail(.handshakeFailed)
                }
                guard readable else { throw fail(.connectTimeout) }
            }
            switch transport.read(into: &buffer) {
            case .bytes(let count): answer += buffer.prefix(count)
            case .again: continue
            case .closed: throw fail(.serverClosed)
            case .failed: throw fail(.handshakeFailed)
            }
        }
        guard answer[0] == 3 else { throw fail(.handshakeFailed) }
        // C2 echoes S1.
        guard transport.write(Array(answer[1..<Self.handshakeSize])) else { throw fail(.handshakeFailed) }
        let leftover = Array(answer[(Self.handshakeSize + 1536)...])

        // librtmp's handshake against the stand-in; its writes land in `local[1]`.
        var local: [Int32] = [-1, -1]
        guard crtmp_local_pair(&local) == 0 else {
            throw fail(.connectFailed(errno: errno))
        }
        // S0, S1 (zero time and version: the plain handshake), S2 (C1 is librtmp's own, unknown
        // here: it only logs a mismatch).
        let standIn = [UInt8(3)] + [UInt8](repeating: 0, count: 1536 * 2)
        let command = connectCommandBody()
        let connected = standIn.withUnsafeBufferPointer { standIn in
            Self.withOptionalBytes(command) { command in
                crtmp_connect_after_handshake(rtmp, local[0], standIn.baseAddress, Int32(standIn.count),
                                              command.baseAddress, UInt32(command.count))
            }
        }
        guard connected != 0 else {
            let events = logSink.takeEvents()
            RTMP_Close(rtmp)  // closes local[0]
            Glibc.close(local[1])
            throw fail(Self.handshakeFailureKind(events))
        }
        // What librtmp wrote: C0 C1 C2 of its own, then the connect command.
        var written: [UInt8] = []
        while true {
            let count = recv(local[1], &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { break }
            written += buffer.prefix(count)
        }
        Glibc.close(local[0])
        Glibc.close(local[1])
        let librtmpHandshake = Self.handshakeSize + 1536
        guard written.count > librtmpHandshake, transport.write(Array(written[librtmpHandshake...])) else {
            crtmp_forget_socket(rtmp)
            throw fail(.handshakeFailed)
        }
        crtmp_use_connection(rtmp, fd, UnsafeMutableRawPointer(tls))
        return leftover
    }
}
