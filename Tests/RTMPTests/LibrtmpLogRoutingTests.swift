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

/// librtmp's debug lines format server data (one per AMF property of every reply): they are
/// dropped before formatting unless asked for; the few Camcast classifies always pass (issue 19).
@Suite("librtmp debug lines and long lines")
struct LibrtmpLogFilterTests {
    static let debug: Int32 = 4
    static let error: Int32 = 1

    func lines(debugLogging: Bool, _ body: () -> Void) throws -> [String] {
        let capture = LogCapture()
        let sink = LibrtmpLogSink(logger: capture.logger(), redactor: StreamKeyRedactor(secrets: ["k3y-77"]),
                                  debugLogging: debugLogging)
        try LibrtmpLog.withSink(sink) { () throws(RTMPError) in body() }
        return capture.all
    }

    @Test("off: an unclassified debug line is never formatted; classified ones and errors pass")
    func debugOff() throws {
        let lines = try lines(debugLogging: false) {
            LibrtmpLog.logThroughLibrtmp(level: Self.debug, format: "Property: <Name: %s>", "server data")
            LibrtmpLog.logThroughLibrtmp(level: Self.debug, format: "Invoking %s", "publish")
            LibrtmpLog.logThroughLibrtmp(level: Self.error, format: "%s", "rtmp server sent error")
        }
        #expect(lines == ["debug [librtmp] Invoking publish ", "warning [librtmp] rtmp server sent error "])
    }

    @Test("on (RTMPPublisherOptions.librtmpDebugLogging): every debug line passes, masked and escaped")
    func debugOn() throws {
        let lines = try lines(debugLogging: true) {
            LibrtmpLog.logThroughLibrtmp(level: Self.debug, format: "Property: <Name: %s>", "k3y-77\u{1B}[2J")
        }
        #expect(lines == ["debug [librtmp] Property: <Name: ****\\x1b[2J> "])
    }

    @Test("a line longer than the 2048-byte stack buffer arrives, masked, then capped: no part of the key")
    func longLine() throws {
        let argument = String(repeating: "x", count: 2040) + "k3y-77 and more"
        let lines = try lines(debugLogging: false) {
            LibrtmpLog.logThroughLibrtmp(level: Self.error, format: "%s", argument)
        }
        let line = try #require(lines.first)
        #expect(!line.contains("k3y"))
        #expect(line.count < LibrtmpLogSink.lineLimit + 40)
    }
}
