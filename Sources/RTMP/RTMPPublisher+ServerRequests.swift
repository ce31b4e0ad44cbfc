internal import CRTMP
#if canImport(Glibc)
import Glibc
#endif

/// The server's side of a publishing connection (after NetStream.Publish.Start).
///
/// librtmp never reads it then, and neither did Camcast before Enhanced RTMP v2: a publisher has
/// nothing to learn there except a reconnect request. So the bytes are read without waiting,
/// parsed and checked as during connect (`RTMPChunkReader`, `RTMPServerMessageGuard`), and only a
/// reconnect request is kept; nothing reaches librtmp, so what it sends is what it sent before
/// (a server's ping stays unanswered as it always did: nginx-rtmp counts the media as liveness).
extension RTMPPublisher {
    /// The chunk reader of the connect, carried on (chunk size, partial messages).
    struct PublishingInbound {
        var reader: RTMPChunkReader
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)

        init(_ inbound: Inbound) { reader = inbound.reader }
    }

    /// Reads, without waiting, what the server has sent since the last call, and returns the
    /// last reconnect request among it. Anything wrong with the server's bytes (a protocol
    /// violation, an end of stream) ends the reading, not the connection: sending finds out for
    /// itself, as before.
    public func takeReconnectRequest() -> RTMPReconnectRequest? {
        guard var inbound = publishingInbound, case .publishing = state, RTMP_IsConnected(rtmp) != 0 else { return nil }
        publishingInbound = nil
        let transport = RTMPTransport(rtmp)
        var request: RTMPReconnectRequest?
        // A bounded number of reads per call: the publisher thread has media to send.
        for _ in 0..<8 {
            if !transport.hasPending {
                // A look, not a wait (SystemCall.poll waits until a deadline; an interrupted look
                // is simply tried again at the next call).
                var look = pollfd(fd: transport.socket, events: Int16(POLLIN), revents: 0)
                guard Glibc.poll(&look, 1, 0) > 0 else { break }
            }
            let count: Int
            switch transport.read(into: &inbound.buffer) {
            case .bytes(let read): count = read
            case .again: publishingInbound = inbound; return request
            case .closed, .failed: return request
            }
            do throws(RTMPProtocolViolation) {
                for message in try inbound.reader.feed(inbound.buffer.prefix(count)) {
                    guard case .deliver(let summary?) = try RTMPServerMessageGuard.check(message, limits: inbound.reader.limits),
                          summary.command == "onStatus", summary.properties["code"] == RTMPReconnectRequest.code
                    else { continue }
                    request = RTMPReconnectRequest(
                        tcUrl: summary.properties["tcUrl"],
                        description: summary.properties["description"].map { logSink.redactor.redactForDisplay($0) })
                }
            } catch {
                logger.warning("RTMP server sent what Camcast cannot read while publishing; no longer reading it",
                               metadata: ["url": "\(url)", "error": "\(error.description)"])
                return request
            }
        }
        publishingInbound = inbound
        return request
    }
}
