import Foundation
import Testing

@testable import CamcastDaemon

@Suite struct SystemdNotifierTests {
    @Test func abstractNamesStartWithNUL() {
        #expect(SystemdNotifier.address(of: "@camcast/x") == [0] + Array("camcast/x".utf8))
        #expect(SystemdNotifier.address(of: "/run/systemd/notify") == Array("/run/systemd/notify".utf8))
    }

    @Test(arguments: [nil, "", "@", "relative/path"])
    func noUsableSocketMeansNoNotifications(_ value: String?) {
        #expect(SystemdNotifier.address(of: value) == nil)
        let notifier = SystemdNotifier(environment: value.map { ["NOTIFY_SOCKET": $0] } ?? [:])
        #expect(!notifier.isEnabled)
        #expect(!notifier.send(["READY=1"]))
    }

    @Test func watchdogIntervalFollowsSdWatchdogEnabled() {
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "2000000"], pid: 7) == .seconds(2))
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "7"], pid: 7) == .seconds(2))
        // The watchdog belongs to another process: not ours to feed.
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "8"], pid: 7) == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "0"], pid: 7) == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: ["WATCHDOG_USEC": "soon"], pid: 7) == nil)
        #expect(SystemdNotifier.watchdogInterval(environment: [:], pid: 7) == nil)
    }

    @Test(arguments: ["@camcast-notifier-test-\(getpid())", "/tmp/camcast-notifier-test-\(getpid()).sock"])
    func datagramsArriveAsSdNotifyWritesThem(_ address: String) throws {
        let socket = try NotifySocket(address: address)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": address])
        notifier.ready(status: "streaming 2 outputs")
        #expect(socket.receive() == "READY=1\nSTATUS=streaming 2 outputs")
        notifier.watchdog()
        #expect(socket.receive() == "WATCHDOG=1")
        notifier.stopping()
        #expect(socket.receive() == "STOPPING=1")
        // A newline inside a value would start a new assignment: it is flattened.
        notifier.status("two\nlines")
        #expect(socket.receive() == "STATUS=two lines")
        notifier.reloading()
        let reloading = try #require(socket.receive()).split(separator: "\n")
        #expect(reloading.first == "RELOADING=1")
        let usec = try #require(reloading.last.flatMap { UInt64($0.dropFirst("MONOTONIC_USEC=".count)) })
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowUsec = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        #expect(nowUsec >= usec && nowUsec - usec < 1_000_000, "MONOTONIC_USEC is CLOCK_MONOTONIC in µs")
    }
}

@Suite struct WatchdogGateTests {
    @Test func pingsOnlyWhileFramesAdvance() {
        var gate = WatchdogGate(framesEncoded: 10)
        var pings: [Bool] = []
        for frames in [25, 25, 25, 26] {
            pings.append(gate.tick(framesEncoded: frames))
        }
        // Advanced, then no frame since the last tick twice (stalled), then one frame: alive again.
        #expect(pings == [true, false, false, true])
        #expect(gate.isHealthy)
    }

    @Test func nothingEncodedYetIsNotHealthy() {
        var gate = WatchdogGate(framesEncoded: 0)
        let ping = gate.tick(framesEncoded: 0)
        #expect(!ping)
        #expect(!gate.isHealthy)
    }
}

@Suite struct WatchdogGateRestTests {
    /// Between schedule windows no frame flows on purpose: the ticks during the rest ping, and so
    /// does the first after it (the source has just started); a stall after that does not.
    @Test func restingIsHealthyAndTheTickAfterItToo() {
        var gate = WatchdogGate(framesEncoded: 10)
        var pings: [Bool] = []
        for (frames, resting) in [(20, false), (20, true), (20, true), (20, false), (20, false), (30, false)] {
            pings.append(gate.tick(framesEncoded: frames, resting: resting))
        }
        #expect(pings == [true, true, true, true, false, true])
    }
}
