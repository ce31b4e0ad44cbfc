import Foundation
import Synchronization
import TestSupport
import Testing

/// Issue 26 defect 3: a second SIGHUP during a reload used to start a second reload beside the
/// first, so systemd heard RELOADING=1 twice before READY=1. Reloads run one at a time now, and
/// SIGHUPs that come during one make one more reload after it.
@Suite(.serialized)
struct ReloadSerialTests {
    @Test func aSIGHUPDuringAReloadWaitsForItAndNotificationsAlternate() throws {
        let dir = try Project.scratchDirectory("reload-serial")
        let config = dir.appendingPathComponent("camcast.yaml")
        // A FIFO with no reader: opening the output added by the reload blocks until the test
        // opens the other end; the reload waits for that open (`ContainerWriter`'s patience,
        // 2 s) before it goes on without it, long enough for the second SIGHUP to come during it.
        let fifo = dir.appendingPathComponent("slow.h264").path
        #expect(mkfifo(fifo, 0o644) == 0)
        func writeConfig(withSlowOutput: Bool) throws {
            try """
                source:
                  size: 320x180
                  fps: 15
                outputs:
                  - path: \(dir.appendingPathComponent("out.flv").path)
                \(withSlowOutput ? "  - path: \(fifo)" : "")
                """.write(to: config, atomically: true, encoding: .utf8)
        }
        try writeConfig(withSlowOutput: false)
        let systemd = try NotifyListener()
        defer { systemd.stop() }
        let process = try Daemon.start(["run", "--config", config.path], environment: ["NOTIFY_SOCKET": systemd.address])
        let ready = try #require(systemd.waitFor(timeout: 20) { $0.hasPrefix("READY=1") }, "no READY=1: \(process.stderrSoFar)")

        try writeConfig(withSlowOutput: true)
        process.signal(SIGHUP)
        _ = try #require(systemd.waitFor(after: ready.seconds, timeout: 10) { $0.hasPrefix("RELOADING=1") }, "\(process.stderrSoFar)")
        #expect(Daemon.waitForLog(process, "reloading", timeout: 10))
        // The first reload now waits in open(2) on the FIFO. The second SIGHUP comes meanwhile;
        // a second reload started beside the first would say RELOADING=1 within this second.
        process.signal(SIGHUP)
        usleep(1_000_000)

        // Let the first reload's open go through, and keep the pipe drained from then on.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(reader >= 0)
        let draining = Drain(reader)
        defer { draining.stop() }

        // Two reloads in all: the one under way, then the coalesced one after it.
        let secondReady = systemd.waitFor(after: ready.seconds, timeout: 20) { _ in
            systemd.received.filter { $0.seconds > ready.seconds && $0.text.hasPrefix("READY=1") }.count >= 2
        }
        #expect(secondReady != nil, "\(process.stderrSoFar)")
        let states = systemd.received.filter { $0.seconds > ready.seconds }.map(\.text)
            .compactMap { text -> String? in
                if text.hasPrefix("RELOADING=1") { return "RELOADING" }
                if text.hasPrefix("READY=1") { return "READY" }
                return nil
            }
        #expect(states == ["RELOADING", "READY", "RELOADING", "READY"], "\(states)")
        #expect(process.stderrSoFar.components(separatedBy: "notice reloading").count - 1 == 2, "\(process.stderrSoFar)")

        process.signal(SIGTERM)
        let result = try process.wait(timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
    }
}

/// Reads and discards whatever arrives on `descriptor` until stopped.
private final class Drain: Sendable {
    private let running = Atomic<Bool>(true)
    private let done = DispatchSemaphore(value: 0)
    private let descriptor: Int32

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while running.load(ordering: .relaxed) {
                var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                if poll(&request, 1, 100) > 0, read(descriptor, &buffer, buffer.count) == 0 { usleep(20_000) }
            }
            done.signal()
        }
    }

    func stop() {
        guard running.exchange(false, ordering: .relaxed) else { return }
        done.wait()
        close(descriptor)
    }
}
