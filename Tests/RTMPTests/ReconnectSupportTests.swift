import Logging
import RTMPAddress
import Testing
@testable import RTMP

@Suite("What a reconnect loop needs from the RTMP module")
struct ReconnectSupportTests {
    @Test("TCP progress is read from struct tcp_info at the kernel's offsets (golden bytes)")
    func tcpInfoGolden() throws {
        var bytes = [UInt8](repeating: 0xEE, count: 232)       // sizeof(struct tcp_info), Linux 6.x
        bytes.replaceSubrange(24..<28, with: [0x03, 0x00, 0x00, 0x00])   // tcpi_unacked = 3 (LE u32)
        bytes.replaceSubrange(120..<128, with: [0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11])  // tcpi_bytes_acked
        bytes.replaceSubrange(144..<148, with: [0x00, 0x10, 0x00, 0x00]) // tcpi_notsent_bytes = 4096
        let progress = try #require(bytes.withUnsafeBytes { TCPProgress(tcpInfo: $0) })
        #expect(progress == TCPProgress(bytesAcked: 0x1122_3344_5566_7788, unackedSegments: 3, notSentBytes: 4096))
        #expect(progress.hasPendingData)
    }

    @Test("a tcp_info from a kernel too old to have bytes_acked/notsent_bytes is refused")
    func tcpInfoTooShort() {
        let bytes = [UInt8](repeating: 0, count: 104)           // the struct as of Linux 3.x
        #expect(bytes.withUnsafeBytes { TCPProgress(tcpInfo: $0) } == nil)
    }

    @Test("nothing unacknowledged and nothing unsent is not pending")
    func notPending() {
        #expect(!TCPProgress(bytesAcked: 9, unackedSegments: 0, notSentBytes: 0).hasPendingData)
        #expect(TCPProgress(bytesAcked: 9, unackedSegments: 0, notSentBytes: 1).hasPendingData)
    }

    @Test("refusals are named for what they are", arguments: [
        ("NetStream.Publish.BadName", "Already publishing", RTMPError.Kind.alreadyPublishing(
            reason: "NetStream.Publish.BadName (Already publishing)")),
        ("NetConnection.Connect.Rejected", "[ AccessManager.Reject ] : [ authmod=adobe ] : ?reason=needauth",
         .authenticationFailed(reason: "NetConnection.Connect.Rejected ([ AccessManager.Reject ] : [ authmod=adobe ] : ?reason=needauth)")),
        ("NetStream.Publish.Unauthorized", nil, .authenticationFailed(reason: "NetStream.Publish.Unauthorized")),
        ("NetStream.Publish.BadName", nil, .publishRejected(reason: "NetStream.Publish.BadName")),
    ] as [(String, String?, RTMPError.Kind)])
    func refusalKinds(code: String, description: String?, expected: RTMPError.Kind) {
        #expect(RTMPPublisher.refusalKind(code: code, description: description, publishRequested: true) == expected)
    }

    @Test("an onStatus description read from the packet decides the kind")
    func descriptionEvent() {
        let events: [LibrtmpLogEvent] = [
            .invoked(method: "publish"), .onStatus(code: "NetStream.Publish.BadName"),
            .statusDescription("Already publishing"),
        ]
        #expect(RTMPPublisher.publishFailureKind(events, connected: true, timedOut: false)
                    == .alreadyPublishing(reason: "NetStream.Publish.BadName (Already publishing)"))
    }

    @Test("capped librtmp lines: its errors at debug, so the caller's one line is the report")
    func levelCap() throws {
        let capture = LogCapture()
        let sink = LibrtmpLogSink(logger: capture.logger(), redactor: StreamKeyRedactor(secrets: ["k3y"]), levelCap: .debug)
        try LibrtmpLog.withSink(sink) { () throws(RTMPError) in
            camcastRTMPLogLine(1, "WriteN, RTMP send error 32 (4096 bytes) k3y")
        }
        #expect(capture.all == ["debug [librtmp] WriteN, RTMP send error 32 (4096 bytes) **** "])
    }

    @Test("abort on a publisher that is not connected does nothing and reports nothing")
    func abortWhenIdle() throws {
        let publisher = RTMPPublisher(url: try RTMPURL(parsing: "rtmp://127.0.0.1:1/app/key"), logger: LogCapture().logger())
        publisher.watch.abort(reason: "test")
        #expect(publisher.watch.progress() == nil)
        #expect(publisher.watch.abortReason == nil)
    }
}
