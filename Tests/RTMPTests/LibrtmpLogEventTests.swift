import RTMPAddress
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import RTMP

@Suite("Classifying librtmp's log lines")
struct LibrtmpLogEventTests {
    static let redactor = StreamKeyRedactor(secrets: ["k3y"])

    /// Lines as librtmp 2.4 (rtmp.c) formats them, and what we read from each.
    static let lines: [(String, LibrtmpLogEvent?)] = [
        ("WriteN, RTMP send error 32 (141 bytes)", .sendError(errno: 32)),
        ("WriteN, RTMP send error 11 (4096 bytes)", .sendError(errno: 11)),
        ("HandleInvoke, onStatus: NetStream.Publish.BadName", .onStatus(code: "NetStream.Publish.BadName")),
        ("HandleInvoke, onStatus: NetStream.Publish.Start", .onStatus(code: "NetStream.Publish.Start")),
        ("HandleInvoke, error description: bad key k3y", .errorDescription("bad key ****")),
        ("HandleInvoke, received error for method call <connect>", .errorReply(method: "connect")),
        ("Invoking publish", .invoked(method: "publish")),
        ("Invoking createStream", .invoked(method: "createStream")),
        ("RTMP_Connect1, handshake failed.", .handshakeFailed),
        ("RTMP_Connect1, RTMP connect failed.", .connectCommandFailed),
        ("rtmp server sent error", .serverSentError),
        ("rtmp server requested close", .serverRequestedClose),
        ("ReadN, RTMP socket closed by peer", .closedByPeer),
        ("Playpath : k3y", nil),
        ("HandShake: Type Answer   : 03", nil),
    ]

    @Test("known lines become events; payloads are redacted", arguments: 0..<lines.count)
    func parses(_ index: Int) {
        let (line, expected) = Self.lines[index]
        #expect(LibrtmpLogEvent(line: line, redactor: Self.redactor) == expected)
    }

    @Test("refusal status codes", arguments: [
        ("NetStream.Publish.BadName", true), ("NetStream.Failed", true),
        ("NetConnection.Connect.Rejected", true), ("NetStream.Publish.Denied", true),
        ("NetStream.Publish.Start", false), ("NetStream.Play.Reset", false),
    ])
    func refusal(_ code: String, _ refused: Bool) {
        #expect(LibrtmpLogEvent.onStatus(code: code).isRefusalStatus == refused)
    }

    @Test("publish phase: refusal after publish is publishRejected, before it connectRejected")
    func publishPhase() {
        let publish = LibrtmpLogEvent.invoked(method: "publish")
        let badName = LibrtmpLogEvent.onStatus(code: "NetStream.Publish.BadName")
        #expect(RTMPPublisher.publishFailureKind([publish, badName], connected: true, timedOut: false)
                == .publishRejected(reason: "NetStream.Publish.BadName"))
        #expect(RTMPPublisher.publishFailureKind([badName], connected: true, timedOut: false)
                == .connectRejected(reason: "NetStream.Publish.BadName"))
        #expect(RTMPPublisher.publishFailureKind([publish, .closedByPeer], connected: false, timedOut: false)
                == .publishRejected(reason: "server closed the connection after the publish request"))
        #expect(RTMPPublisher.publishFailureKind([.invoked(method: "connect")], connected: false, timedOut: false)
                == .connectRejected(reason: "server closed the connection before publish"))
        #expect(RTMPPublisher.publishFailureKind([.errorReply(method: "connect"), .errorDescription("no such app")],
                                                 connected: true, timedOut: false)
                == .connectRejected(reason: "no such app"))
        #expect(RTMPPublisher.publishFailureKind([publish], connected: true, timedOut: true) == .connectTimeout)
        // nginx-rtmp's failed on_publish: EOF while waiting, then librtmp's close path fails to
        // send FCUnpublish (EPIPE). The cause is the refusal, not the send error.
        #expect(RTMPPublisher.publishFailureKind([publish, .invoked(method: "FCUnpublish"), .sendError(errno: 32)],
                                                 connected: false, timedOut: false)
                == .publishRejected(reason: "server closed the connection after the publish request"))
        #expect(RTMPPublisher.publishFailureKind([.invoked(method: "createStream"), .sendError(errno: 32)],
                                                 connected: false, timedOut: false) == .serverClosed)
        #expect(RTMPPublisher.publishFailureKind([publish, .onStatus(code: "NetStream.Publish.Start")],
                                                 connected: true, timedOut: false) == nil)
    }

    @Test("send errno → kind", arguments: [
        (Int32(EAGAIN), RTMPError.Kind.sendTimeout), (ETIMEDOUT, .sendTimeout),
        (EPIPE, .serverClosed), (ECONNRESET, .serverClosed), (ENOBUFS, .writeFailed(errno: ENOBUFS)),
    ])
    func sendKinds(_ code: Int32, _ kind: RTMPError.Kind) {
        #expect(RTMPPublisher.sendFailureKind([.invoked(method: "publish"), .sendError(errno: code)]) == kind)
    }

    @Test("an error description names the redacted URL and never the key")
    func errorDescription() throws {
        let url = try RTMPURL(parsing: "rtmp://ingest.example:1935/live/k3y")
        let error = RTMPError(kind: .publishRejected(reason: "NetStream.Publish.BadName"), url: url.redacted,
                              detail: url.redactor.redact("stream k3y is busy"))
        #expect(error.description
                == "RTMP publish rejected by server: NetStream.Publish.BadName (rtmp://ingest.example:1935/live/****): stream **** is busy")
    }
}
