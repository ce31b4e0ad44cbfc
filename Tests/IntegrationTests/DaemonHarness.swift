import Foundation
import Synchronization
import TestSupport

/// Plays systemd's side of sd_notify: a datagram socket in the abstract namespace that the daemon
/// finds in NOTIFY_SOCKET, and every message that arrives with the time it arrived.
final class NotifyListener: Sendable {
    struct Message: Sendable {
        var seconds: Double
        var text: String
    }

    /// What to put in NOTIFY_SOCKET.
    let address: String
    private let fd: Int32
    private let started = Date()
    private let messages = Mutex<[Message]>([])
    private let running = Atomic<Bool>(true)
    private let done = DispatchSemaphore(value: 0)

    init() throws {
        address = "@camcast-notify-\(getpid())-\(UUID().uuidString.prefix(8))"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        self.fd = fd
        var local = sockaddr_un()
        local.sun_family = sa_family_t(AF_UNIX)
        let name = [UInt8(0)] + Array(address.utf8.dropFirst())
        withUnsafeMutableBytes(of: &local.sun_path) { $0.copyBytes(from: name) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + name.count)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw HarnessError("cannot bind \(address): errno \(errno)") }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let descriptor = fd
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while running.load(ordering: .relaxed) {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                guard count > 0 else { continue }
                let message = Message(seconds: now, text: String(decoding: buffer[..<count], as: UTF8.self))
                messages.withLock { $0.append(message) }
            }
            done.signal()
        }
    }

    /// Seconds since the listener started.
    var now: Double { Date().timeIntervalSince(started) }

    var received: [Message] { messages.withLock { $0 } }

    /// Waits until a message satisfying `match` arrives after `since`; nil on timeout.
    func waitFor(after since: Double = 0, timeout: Double, _ match: (String) -> Bool) -> Message? {
        let deadline = now + timeout
        repeat {
            if let found = received.first(where: { $0.seconds >= since && match($0.text) }) { return found }
            usleep(20_000)
        } while now < deadline
        return nil
    }

    func stop() {
        guard running.exchange(false, ordering: .relaxed) else { return }
        done.wait()
        close(fd)
    }

    deinit { stop() }
}

/// Starting `camcast` with extra environment variables (NOTIFY_SOCKET, WATCHDOG_USEC, test hooks).
enum Daemon {
    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> RunningProcess {
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        // env execs camcast in place, so the pid is camcast's and signals reach it directly.
        return try ProcessRunner.start("/usr/bin/env", assignments + [Project.camcastBinary.path] + arguments)
    }

    /// Waits until camcast's log has a line containing `text` (after `count` earlier ones).
    @discardableResult
    static func waitForLog(_ process: RunningProcess, _ text: String, occurrences count: Int = 1, timeout: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if process.stderrSoFar.components(separatedBy: text).count - 1 >= count { return true }
            usleep(50_000)
        }
        return false
    }

    static func isRunning(_ process: RunningProcess) -> Bool {
        kill(process.pid, 0) == 0 && !process.stderrSoFar.contains(" stopped ")
    }
}

