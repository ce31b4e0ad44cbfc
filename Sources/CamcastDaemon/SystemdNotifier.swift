#if canImport(Glibc)
import Glibc
#endif
import Media

/// Tells systemd how the service is doing: the `sd_notify` protocol, written from sd_notify(3).
///
/// systemd puts the path of a datagram socket in `$NOTIFY_SOCKET` (a leading `@` names a socket
/// in the abstract namespace) and reads newline-separated `KEY=value` assignments from it. With no
/// `$NOTIFY_SOCKET` (not under systemd, or `Type=exec`) every call does nothing, as sd_notify does.
public final class SystemdNotifier: Sendable {
    /// The socket address bytes: a path, or a NUL followed by an abstract name.
    private let address: [UInt8]?
    /// How often systemd wants `WATCHDOG=1`, from `$WATCHDOG_USEC`; nil when the watchdog is off
    /// or meant for another process (`$WATCHDOG_PID`).
    public let watchdogInterval: Duration?

    public init(environment: [String: String]) {
        address = Self.address(of: environment["NOTIFY_SOCKET"])
        watchdogInterval = Self.watchdogInterval(environment: environment, pid: Int(getpid()))
    }

    public var isEnabled: Bool { address != nil }

    /// `READY=1`: start-up is finished (systemd moves the unit to "active"), or a reload is done.
    public func ready(status: String? = nil) {
        send(["READY=1"] + (status.map { ["STATUS=\($0)"] } ?? []))
    }

    /// `RELOADING=1` with the CLOCK_MONOTONIC time in µs, which systemd ≥ 253 wants to tell this
    /// reload from an earlier one. `ready()` must follow once the reload is over.
    public func reloading() {
        send(["RELOADING=1", "MONOTONIC_USEC=\(MonotonicTime.now().nanoseconds / 1000)"])
    }

    public func stopping() { send(["STOPPING=1"]) }

    /// A one-line status shown by `systemctl status`.
    public func status(_ line: String) { send(["STATUS=\(line)"]) }

    /// `WATCHDOG=1`: the service is alive; without it for `WatchdogSec=` systemd kills and restarts it.
    public func watchdog() { send(["WATCHDOG=1"]) }

    /// Sends one datagram; failures are ignored, because a lost notification must never stop the stream.
    @discardableResult
    public func send(_ assignments: [String]) -> Bool {
        guard let address else { return false }
        let message = Array(assignments.map { $0.replacingNewlines() }.joined(separator: "\n").utf8)
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var peer = sockaddr_un()
        peer.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: peer.sun_path)
        guard address.count <= capacity else { return false }
        withUnsafeMutableBytes(of: &peer.sun_path) { path in
            path.copyBytes(from: address)
        }
        // An abstract name is exactly as long as given (no NUL terminator), so the length counts it.
        let length = socklen_t(MemoryLayout<sa_family_t>.size + address.count)
        let sent = withUnsafePointer(to: &peer) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                message.withUnsafeBytes { bytes in
                    sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                }
            }
        }
        return sent == message.count
    }

    /// `/run/systemd/notify` as is; `@name` as NUL + name (the abstract namespace).
    static func address(of socketPath: String?) -> [UInt8]? {
        guard let socketPath, socketPath.count > 1 else { return nil }
        if socketPath.hasPrefix("@") { return [0] + Array(socketPath.utf8.dropFirst()) }
        guard socketPath.hasPrefix("/") else { return nil }
        return Array(socketPath.utf8)
    }

    /// sd_watchdog_enabled(3): `$WATCHDOG_USEC` > 0, and `$WATCHDOG_PID`, if set, is this process.
    static func watchdogInterval(environment: [String: String], pid: Int) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0 else { return nil }
        if let owner = environment["WATCHDOG_PID"], Int(owner) != pid { return nil }
        return .microseconds(usec)
    }
}

extension String {
    /// A value must stay on its line: a newline would start a new assignment.
    fileprivate func replacingNewlines() -> String {
        String(map { $0.isNewline ? " " : $0 })
    }
}
