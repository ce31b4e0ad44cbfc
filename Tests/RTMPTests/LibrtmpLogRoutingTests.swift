import Foundation
import RTMPAddress
import Testing
@testable import RTMP

@Suite("Routing librtmp's global log callback")
struct LibrtmpLogRoutingTests {
    @Test("a line reaches the bound sink's logger redacted, and becomes an event")
    func redactsAndRecords() throws {
        let capture = LogCapture()
        let sink = LibrtmpLogSink(logger: capture.logger(), redactor: StreamKeyRedactor(secrets: ["k3y-77"]))
        try LibrtmpLog.withSink(sink) { () throws(RTMPError) in
            camcastRTMPLogLine(4, "Playpath : k3y-77")
            camcastRTMPLogLine(1, "HandleInvoke, onStatus: NetStream.Publish.BadName")
        }
        #expect(capture.all == [
            "debug [librtmp] Playpath : **** ",
            "warning [librtmp] HandleInvoke, onStatus: NetStream.Publish.BadName ",
        ])
        #expect(sink.takeEvents() == [.onStatus(code: "NetStream.Publish.BadName")])
        #expect(sink.takeEvents().isEmpty)
    }

    @Test("a line with no sink bound is dropped")
    func unboundDropped() {
        let capture = LogCapture()
        let sink = LibrtmpLogSink(logger: capture.logger(), redactor: StreamKeyRedactor(secrets: []))
        camcastRTMPLogLine(1, "rtmp server sent error")
        #expect(capture.all.isEmpty)
        #expect(sink.takeEvents().isEmpty)
    }

    @Test("publishers on different threads each get only their own lines")
    func perThread() async throws {
        let captures = [LogCapture(), LogCapture()]
        let sinks = captures.enumerated().map { index, capture in
            LibrtmpLogSink(logger: capture.logger(), redactor: StreamKeyRedactor(secrets: ["secret\(index)"]))
        }
        let threads = (0..<2).map { index in
            Thread {
                for n in 0..<200 {
                    _ = try? LibrtmpLog.withSink(sinks[index]) { () throws(RTMPError) in
                        camcastRTMPLogLine(4, "thread \(index) line \(n) secret\(index)")
                    }
                }
            }
        }
        threads.forEach { $0.start() }
        while threads.contains(where: { !$0.isFinished }) { try await Task.sleep(for: .milliseconds(5)) }
        for (index, capture) in captures.enumerated() {
            let lines = capture.all
            #expect(lines.count == 200)
            #expect(lines.allSatisfy { $0.contains("thread \(index) ") && !$0.contains("secret") })
        }
    }
}
