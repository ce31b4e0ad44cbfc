import Foundation
import RTMPAddress
import TestSupport
import Testing
@testable import RTMP

/// A stopping output cancels its publisher's connect from another thread (issue 14 #11): the
/// socket is shut down, librtmp's blocked read fails at once, and the server never gets a publish.
@Suite("cancelling a connect")
struct ConnectCancelTests {
    static let key = "CANCELKEY42"

    /// The publisher, connected on a thread of its own; `connect` blocks there.
    final class Attempt: @unchecked Sendable {
        let publisher: RTMPPublisher
        private let done = DispatchSemaphore(value: 0)
        private(set) var failure: RTMPError?

        init(port: UInt16, timeoutSeconds: Int) throws {
            let url = try RTMPURL(parsing: "rtmp://127.0.0.1:\(port)/live/\(ConnectCancelTests.key)")
            publisher = RTMPPublisher(
                url: url, options: RTMPPublisherOptions(connectTimeoutSeconds: timeoutSeconds), logger: LogCapture().logger())
        }

        func start() {
            Thread.detachNewThread { [self] in
                do throws(RTMPError) { try publisher.connect() } catch { failure = error }
                publisher.close()
                done.signal()
            }
        }

        /// Whether `connect` returned within `limit` seconds.
        func wait(limit: Double) -> Bool { done.wait(timeout: .now() + limit) == .success }
    }

    @Test func aCancelEndsAConnectBlockedInTheHandshakeAtOnce() throws {
        // Takes the TCP connection into its backlog and never answers the RTMP handshake.
        let silent = try LoopbackListener()
        let attempt = try Attempt(port: silent.port, timeoutSeconds: 20)
        attempt.start()
        Thread.sleep(forTimeInterval: 0.3)
        let cancelled = ContinuousClock.now
        attempt.publisher.watch.cancel()
        #expect(attempt.wait(limit: 5), "connect still blocked 5 s after the cancel (its timeout is 20 s)")
        #expect(ContinuousClock.now - cancelled < .seconds(5))
        #expect(attempt.failure?.kind == .cancelled)
        #expect(attempt.failure.map { !$0.description.contains(Self.key) } ?? true)
    }

    @Test func aCancelBeforeTheConnectSendsTheServerNothing() throws {
        let server = try LoopbackListener()
        let attempt = try Attempt(port: server.port, timeoutSeconds: 5)
        attempt.publisher.watch.cancel()
        attempt.start()
        #expect(attempt.wait(limit: 5))
        #expect(attempt.failure?.kind == .cancelled)
        // The server got no connection (the lookup and connect see the cancel first), or one that
        // carried not a byte (not even the handshake's C0). Polled, not accepted blindly: an
        // attempt that never connects leaves nothing to accept.
        var pending = pollfd(fd: server.fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pending, 1, 1000) == 1 else { return }
        let client = accept(server.fd, nil, nil)
        try #require(client >= 0)
        defer { close(client) }
        var byte: UInt8 = 0
        #expect(recv(client, &byte, 1, 0) == 0, "the cancelled attempt sent something")
    }
}
