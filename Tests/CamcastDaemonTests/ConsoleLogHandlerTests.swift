#if canImport(Glibc)
import Glibc
#endif
import Logging
import Testing

@testable import CamcastDaemon

@Suite struct ConsoleLogHandlerTests {
    @Test(arguments: [
        (Logger.Level.critical, "<2>"), (.error, "<3>"), (.warning, "<4>"), (.notice, "<5>"), (.info, "<6>"),
        (.debug, "<7>"), (.trace, "<7>"),
    ])
    func journalLinesStartWithTheirSyslogPriority(_ level: Logger.Level, _ prefix: String) {
        let line = ConsoleLogHandler.line(
            level: level, message: "output failed", metadata: ["output": "rtmp://h:1935/live/****", "error": "Broken pipe"],
            style: .journal, timestamp: { Issue.record("the journal stamps lines itself"); return "" })
        #expect(line == "\(prefix)\(level) output failed error=\"Broken pipe\" output=rtmp://h:1935/live/****")
    }

    @Test func terminalLinesStartWithATimestampAndNoPriority() {
        let line = ConsoleLogHandler.line(
            level: .error, message: "boom", metadata: [:], style: .terminal, timestamp: { "2026-11-24T06:00:00.000Z" })
        #expect(line == "2026-11-24T06:00:00.000Z error boom")
    }

    /// A file stands in for the journal's socket: what counts is that stderr's device and inode
    /// are the ones in JOURNAL_STREAM.
    @Test func journalStyleOnlyWhenTheDescriptorIsTheNamedStream() throws {
        let path = "/tmp/camcast-console-\(getpid()).log"
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0)
        defer {
            close(descriptor)
            unlink(path)
        }
        var info = stat()
        try #require(fstat(descriptor, &info) == 0)
        let named = "\(info.st_dev):\(info.st_ino)"
        #expect(ConsoleLogHandler.Style.detect(journalStream: named, descriptor: descriptor) == .journal)
        #expect(ConsoleLogHandler.Style.detect(journalStream: "\(info.st_dev):\(info.st_ino + 1)", descriptor: descriptor) == .terminal)
        #expect(ConsoleLogHandler.Style.detect(journalStream: nil, descriptor: descriptor) == .terminal)
        for garbage in ["", "12", "a:b", "1:2:3", ":"] {
            #expect(ConsoleLogHandler.Style.detect(journalStream: garbage, descriptor: descriptor) == .terminal, "\(garbage)")
        }
        #expect(ConsoleLogHandler.Style.detect(journalStream: named, descriptor: -1) == .terminal)
    }
}
