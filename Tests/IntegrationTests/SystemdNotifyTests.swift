import Foundation
import TestSupport
import Testing

/// `camcast run` under a pretend systemd: NOTIFY_SOCKET and WATCHDOG_USEC in the environment, and
/// a datagram socket that records what the daemon says and when.
@Suite(.serialized)
struct SystemdNotifyTests {
    @Test func readyStatusWatchdogReloadStallAndStop() throws {
        let dir = try Project.scratchDirectory("notify")
        let config = dir.appendingPathComponent("camcast.yaml")
        let stall = dir.appendingPathComponent("stall")
        func writeConfig(bitrate: Int) throws {
            try """
                source:
                  size: 320x180
                  fps: 30
                encoder:
                  bitrate_kbps: \(bitrate)
                outputs:
                  - path: \(dir.appendingPathComponent("out.flv").path)
                status:
                  interval_seconds: 1
                """.write(to: config, atomically: true, encoding: .utf8)
        }
        try writeConfig(bitrate: 300)
        let systemd = try NotifyListener()
        defer { systemd.stop() }
        let process = try Daemon.start(
            ["run", "--config", config.path],
            environment: [
                "NOTIFY_SOCKET": systemd.address, "WATCHDOG_USEC": "1000000",
                "CAMCAST_DEBUG_STALL_CAPTURE_WHILE_EXISTS": stall.path,
            ])

        // READY=1 once the pipeline runs, with a first STATUS=.
        let ready = try #require(systemd.waitFor(timeout: 15) { $0.hasPrefix("READY=1") }, "no READY=1: \(process.stderrSoFar)")
        #expect(ready.text.contains("STATUS=streaming 320x180"))

        // Two and a half seconds of steady running: WATCHDOG=1 every 0.5 s (half of WATCHDOG_USEC)
        // and a STATUS= line every second.
        usleep(2_600_000)
        let steady = systemd.received.filter { $0.seconds > ready.seconds }
        let pings = steady.filter { $0.text == "WATCHDOG=1" }.map(\.seconds)
        let gaps = zip(pings, pings.dropFirst()).map { $1 - $0 }
        #expect(pings.count >= 4, "pings: \(pings)")
        #expect(gaps.allSatisfy { (0.4...0.6).contains($0) }, "WATCHDOG=1 every 0.5 s: \(gaps)")
        let statuses = steady.filter { $0.text.hasPrefix("STATUS=320x180 in ") }
        #expect(statuses.count >= 2, "\(steady.map(\.text))")
        #expect(statuses.last?.text.contains("300 kbit/s") == true, "\(statuses.last?.text ?? "")")

        // SIGHUP: RELOADING=1 with MONOTONIC_USEC, then READY=1 once the new bitrate is applied.
        try writeConfig(bitrate: 500)
        let beforeReload = systemd.now
        process.signal(SIGHUP)
        let reloading = try #require(systemd.waitFor(after: beforeReload, timeout: 5) { $0.hasPrefix("RELOADING=1") })
        #expect(reloading.text.contains("\nMONOTONIC_USEC="))
        let reloaded = try #require(systemd.waitFor(after: reloading.seconds, timeout: 5) { $0.hasPrefix("READY=1") })
        #expect(reloaded.text.contains("STATUS=reloaded: 1 applied"), "\(reloaded.text)")
        #expect(systemd.waitFor(after: reloaded.seconds, timeout: 3) { $0.contains("/500 kbit/s") } != nil)

        // A stalled capture thread: frames stop, and so do the pings (at most one more, for frames
        // encoded before the stall), while STATUS= goes on saying so.
        _ = FileManager.default.createFile(atPath: stall.path, contents: nil)
        let stalledAt = systemd.now
        usleep(2_500_000)
        let lateStallPings = systemd.received.filter { $0.seconds > stalledAt + 0.6 && $0.text == "WATCHDOG=1" }
        let stallPings = systemd.received.filter { $0.seconds > stalledAt && $0.text == "WATCHDOG=1" }
        #expect(lateStallPings.isEmpty, "pings while stalled: \(lateStallPings.map(\.seconds))")
        #expect(stallPings.count <= 1)
        #expect(systemd.received.contains { $0.seconds > stalledAt && $0.text.contains("out 0.0 fps") })
        #expect(process.stderrSoFar.contains("watchdog pings withheld"))

        // Frames flow again: so do the pings.
        try FileManager.default.removeItem(at: stall)
        let resumedAt = systemd.now
        #expect(systemd.waitFor(after: resumedAt, timeout: 2) { $0 == "WATCHDOG=1" } != nil)

        // SIGTERM: STOPPING=1, exit 0.
        let beforeStop = systemd.now
        process.signal(SIGTERM)
        let result = try process.wait(timeout: 15)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(systemd.waitFor(after: beforeStop, timeout: 1) { $0 == "STOPPING=1" } != nil)
    }
}
