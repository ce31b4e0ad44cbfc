import Foundation
import TestSupport
import Testing

/// Issue 26 defect 1 in the daemon: a file output whose writes hang (here a FIFO whose reader
/// never reads, as a dead NFS mount would) used to block the status snapshot, hang for good a
/// reload that removed it (and every reload after), and hold the stop until the hard exit.
@Suite(.serialized)
struct HungOutputReloadTests {
    @Test(.timeLimit(.minutes(2)))
    func aHungFileOutputIsRemovedByAReloadAndNeitherStatusNorStopWaitsForIt() throws {
        let dir = try Project.scratchDirectory("hung-output")
        let config = dir.appendingPathComponent("camcast.yaml")
        let fifo = dir.appendingPathComponent("stuck.h264").path
        #expect(mkfifo(fifo, 0o644) == 0)
        // Held open and never read: the daemon's open succeeds, its writes fill the pipe and hang.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(reader >= 0)
        // One page (F_SETPIPE_SZ, F_LINUX_SPECIFIC_BASE + 7): the writes hang at once.
        _ = fcntl(reader, 1024 + 7, 4096)
        defer { close(reader) }
        func writeConfig(withStuckOutput: Bool) throws {
            try """
                source:
                  size: 320x180
                  fps: 15
                encoder:
                  bitrate_kbps: 1500
                outputs:
                  - path: \(dir.appendingPathComponent("out.flv").path)
                \(withStuckOutput ? "  - path: \(fifo)" : "")
                """.write(to: config, atomically: true, encoding: .utf8)
        }
        try writeConfig(withStuckOutput: true)
        let systemd = try NotifyListener()
        defer { systemd.stop() }
        let process = try Daemon.start(["run", "--config", config.path], environment: ["NOTIFY_SOCKET": systemd.address])
        let ready = try #require(systemd.waitFor(timeout: 20) { $0.hasPrefix("READY=1") }, "no READY=1: \(process.stderrSoFar)")
        // The full status (SIGUSR1) reads every output's figures, so it must answer while the
        // write hangs; it also shows the hang: the Annex-B output's queue grows (queue_s).
        var stuckFor = 0.0
        for round in 1...40 where stuckFor < 1 {
            process.signal(SIGUSR1)
            let answered = Daemon.waitForLog(process, "notice status: output annexb-1", occurrences: round, timeout: 5)
            try #require(answered, "the status snapshot blocked: \(process.stderrSoFar)")
            let line = process.stderrSoFar.split(separator: "\n").last { $0.contains("status: output annexb-1") } ?? ""
            let field = line.split(separator: " ").first { $0.hasPrefix("queue_s=") }
            stuckFor = field.flatMap { Double($0.dropFirst("queue_s=".count)) } ?? 0
            usleep(250_000)
        }
        try #require(stuckFor >= 1, "the output's writes never hung: \(process.stderrSoFar)")

        // A reload that removes the hung output: done after the stop's drain (2 s) and the
        // writer's grace (2 s), not never.
        try writeConfig(withStuckOutput: false)
        process.signal(SIGHUP)
        let reloading = try #require(systemd.waitFor(after: ready.seconds, timeout: 10) { $0.hasPrefix("RELOADING=1") })
        let reloaded = systemd.waitFor(after: reloading.seconds, timeout: 10) { $0.hasPrefix("READY=1") }
        #expect(reloaded != nil, "the reload that removed the hung output did not finish: \(process.stderrSoFar)")
        #expect(process.stderrSoFar.contains("file writes did not finish in time"), "\(process.stderrSoFar)")
        // The next reload is not blocked behind it either.
        let beforeAgain = systemd.now
        process.signal(SIGHUP)
        let again = systemd.waitFor(after: beforeAgain, timeout: 5) { $0.hasPrefix("READY=1") }
        #expect(again != nil, "a later reload was blocked: \(process.stderrSoFar)")

        process.signal(SIGTERM)
        let result = try process.wait(timeout: 10)
        #expect(result.status == 0, "\(result.stderr)")

        // The disk comes back: the writer left behind ends its write and closes the file.
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let closed = (0..<1000).contains { _ in
            var request = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            _ = poll(&request, 1, 10)
            return read(reader, &buffer, buffer.count) == 0
        }
        // The daemon has exited, so its descriptor is closed either way; read to the end.
        #expect(closed)
    }
}
