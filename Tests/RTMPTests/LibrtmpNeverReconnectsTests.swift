import Foundation
import RTMPAddress
import TestSupport
import Testing
@testable import RTMP

/// librtmp 2.4 (Debian's build, with CRYPTO) answers an `_error` to `connect` that asks for Adobe
/// publisher authentication (`authmod=adobe … ?reason=needauth`) by closing and calling
/// `RTMP_Connect` itself: gethostbyname, a blocking IPv4 connect with no timeout, TLS dropped (an
/// rtmps:// publish would go on in plaintext) and `RTMP_ConnectStream`, whose `RTMP_ReadPacket`
/// none of Camcast's guards see; and PublisherAuth's own string handling corrupted the heap
/// (glibc "free(): invalid size", 1 run in ~8 under MALLOC_CHECK_=3). Camcast ends the attempt
/// on such a reply before librtmp sees it, and leaves librtmp no host name to connect to anyway.
@Suite("librtmp never reconnects on its own")
struct LibrtmpNeverReconnectsTests {
    @Test func anAuthChallengeEndsTheAttemptWithoutASecondConnection() throws {
        let listener = try LoopbackListener()
        let description = "[ AccessManager.Reject ] : [ authmod=adobe ] : ?reason=needauth&user=cam&salt=c2FsdA==&challenge=Y2hhbA=="
        let body = TestChunks.string("_error") + TestChunks.number(1) + TestChunks.null + TestChunks.object([
            ("level", TestChunks.string("error")), ("code", TestChunks.string("NetConnection.Connect.Rejected")),
            ("description", TestChunks.string(description)),
        ])
        RTMPPublisherGuardTests.serve(listener, afterHandshake: TestChunks.message(id: 3, type: 20, body: body))
        let logs = LogCapture()
        let url = try RTMPURL(parsing: "rtmp://127.0.0.1:\(listener.port)/live/\(RTMPPublisherGuardTests.key)")
        let publisher = RTMPPublisher(url: url, options: RTMPPublisherOptions(connectTimeoutSeconds: 4), logger: logs.logger())
        let start = ContinuousClock.now
        let error = try #require(throws: RTMPError.self) { try publisher.connect() }
        let elapsed = ContinuousClock.now - start
        publisher.close()

        // The serving thread accepts one connection; a second one would wait in the backlog.
        var pending = pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&pending, 1, 200) == 0, "librtmp connected to the server a second time")
        #expect(error.kind == .connectRejected(
            reason: "server asks for publisher authentication (authmod), which Camcast does not support"))
        #expect(elapsed < .seconds(2), "took \(elapsed): ended by the refusal, not by a timeout")
        #expect(!error.description.contains(RTMPPublisherGuardTests.key))
        #expect(!logs.all.joined().contains(RTMPPublisherGuardTests.key))
    }
}
