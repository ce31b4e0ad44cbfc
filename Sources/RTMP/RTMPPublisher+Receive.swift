internal import CRTMP
import Media
#if canImport(Glibc)
import Glibc
#endif

/// The server's side of the connection, read by Camcast instead of librtmp (issue 19).
///
/// Why this design: librtmp's `RTMP_ReadPacket` allocates whatever a chunk header declares and
/// its AMF code recurses without bound, so the server's bytes must be checked before librtmp
/// sees them. A publisher reads from the server only while connecting (after Publish.Start
/// nothing reads the socket), and librtmp's handler for a whole message, `RTMP_ClientPacket`,
/// is public. So Camcast reads the socket itself during connect, parses chunks with its own
/// bounded reader, checks each message, and hands only whole checked messages to
/// `RTMP_ClientPacket`. Compared with relaying through a socketpair on a thread, nothing
/// changes on the send side: librtmp still writes to the real TCP socket, so SO_SNDTIMEO,
/// TCP_USER_TIMEOUT, TCP_NOTSENT_LOWAT, the tcp_info progress watch and `abort` keep working
/// on that socket unchanged, with no extra thread, buffer or copy of the media.
extension RTMPPublisher {
    /// One connection attempt's inbound state: the chunk reader, and checked messages read but
    /// not yet handed to librtmp (one is handed over per step, so the caller sees librtmp's
    /// state after each).
    struct Inbound {
        var reader = RTMPChunkReader()
        var queue: [RTMPChunkReader.Message] = []
        var queueStart = 0
    }

    enum ReceiveStep {
        /// A message went to librtmp, or bytes arrived, or the connection closed.
        case progressed
        /// Nothing arrived before the deadline.
        case idle
    }

    /// Moves whatever librtmp's handshake read past S2 into `inbound`, so it is checked too.
    func takeBytesBufferedByHandshake(into inbound: inout Inbound) throws(RTMPError) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = Int(crtmp_take_buffered(rtmp, &buffer, Int32(buffer.count)))
            guard count > 0 else { return }
            try accept(buffer.prefix(count), into: &inbound)
        }
    }

    /// Hands the next checked message to librtmp, or waits until `deadline` for bytes from the
    /// server and reads them. A closed or failed socket is closed in librtmp too (so
    /// `RTMP_IsConnected` tells the caller); a protocol violation closes it and throws.
    func receiveStep(_ inbound: inout Inbound, until deadline: ContinuousClock.Instant) throws(RTMPError) -> ReceiveStep {
        guard RTMP_IsConnected(rtmp) != 0 else { return .progressed }
        if inbound.queueStart < inbound.queue.count {
            let message = inbound.queue[inbound.queueStart]
            inbound.queueStart += 1
            hand(message)
            return .progressed
        }
        inbound.queue.removeAll(keepingCapacity: true)
        inbound.queueStart = 0
        let transport = RTMPTransport(rtmp)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            if !transport.hasPending {
                let readable: Bool
                do throws(SystemCallError) {
                    readable = try SystemCall.poll(transport.socket, events: POLLIN, until: deadline)
                } catch {
                    RTMP_Close(rtmp)
                    return .progressed
                }
                guard readable else { return .idle }
            }
            switch transport.read(into: &buffer) {
            case .again:
                continue  // readable was a false alarm (a checksum failure, say, or half a TLS record)
            case .closed:
                // EOF (also what the connect deadline's shutdown looks like).
                logSink.record(.closedByPeer)
                RTMP_Close(rtmp)
                return .progressed
            case .failed:
                RTMP_Close(rtmp)
                return .progressed
            case .bytes(let count):
                try accept(buffer.prefix(count), into: &inbound)
                return .progressed
            }
        }
    }

    /// What librtmp's `PublisherAuth` looks for (strstr) in an `_error` reply's description.
    static let publisherAuthMarker = Array("authmod=".utf8)

    /// Parses and checks `bytes`; queues the messages librtmp should see.
    func accept(_ bytes: ArraySlice<UInt8>, into inbound: inout Inbound) throws(RTMPError) {
        var asksForPublisherAuth = false
        do throws(RTMPProtocolViolation) {
            for message in try inbound.reader.feed(bytes) {
                guard case .deliver(let summary) = try RTMPServerMessageGuard.check(message, limits: inbound.reader.limits) else {
                    continue
                }
                if summary?.command == "_error", message.body.firstRange(of: Self.publisherAuthMarker) != nil {
                    // librtmp answers this with PublisherAuth (authmod=adobe/llnw), whose string
                    // handling corrupted the heap in a test (glibc "free(): invalid size") and
                    // which then reconnects on its own. Camcast has no publisher credentials.
                    asksForPublisherAuth = true
                    break
                }
                if let summary, summary.command == "onStatus", let description = summary.properties["description"] {
                    // librtmp logs only the code; the description tells "already publishing" apart.
                    logSink.record(.statusDescription(logSink.redactor.redactForDisplay(description)))
                }
                inbound.queue.append(message)
            }
        } catch {
            RTMP_Close(rtmp)
            throw self.error(.protocolViolation(reason: error.description))
        }
        if asksForPublisherAuth {
            RTMP_Close(rtmp)
            throw self.error(.connectRejected(
                reason: "server asks for publisher authentication (authmod), which Camcast does not support"))
        }
    }

    private func hand(_ message: RTMPChunkReader.Message) {
        _ = message.body.withUnsafeBufferPointer { body in
            crtmp_handle_message(rtmp, Int32(message.chunkStream), message.type, message.streamID, message.timestamp,
                                 body.baseAddress, UInt32(body.count))
        }
    }
}
