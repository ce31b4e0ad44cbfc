import Foundation
import Synchronization

/// A real nginx-rtmp on loopback, started through the project's `scripts/rtmp-server` (the server
/// `scripts/demo` uses too) in a state directory and on ports of its own, so tests never share a server.
///
/// `environment` passes settings to the script (e.g. `RTMP_RECORD_UNIQUE=on`, `RTMP_LOG_LEVEL=debug`);
/// `namespace` runs nginx inside a network namespace, where a test may black-hole or throttle its
/// traffic; `RTMP_LISTEN=[::1]` makes it listen on IPv6 loopback only. Stopped gracefully when released.
public final class RTMPServer {
    public let state: URL
    public let port: Int
    public let httpPort: Int
    public let environment: [String: String]
    /// Held as long as the server: nginx must be stopped inside it before it goes away.
    public let namespace: (any CommandPrefixing)?

    public init(environment: [String: String] = [:], namespace: (any CommandPrefixing)? = nil) throws {
        self.environment = environment
        self.namespace = namespace
        state = try Project.scratchDirectory("rtmp")
        // Ports from the pid and a counter: parallel test processes do not collide. A process's
        // first four servers get its own four ports (20000…27999); later ones, which a counter
        // wrapping around would give a port still held — or held again after a restart — by an
        // earlier server of the same process, get a random one in 28000…29999, as does a retry
        // after "already in use". HTTP is RTMP − 10000 (10000…19999): below the kernel's ephemeral
        // range (32768…), where any bind(0) — Camcast's HTTP listener, Prometheus — or outgoing
        // connection may hold the port nginx wants.
        let index = RTMPServer.nextIndex()
        var port = index < 4 ? 20000 + Int(getpid() % 2000) * 4 + index : Int.random(in: 28000..<30000)
        var attempt = 0
        while true {
            do {
                try Self.runScript("start", state: state, port: port, environment: environment, namespace: namespace)
                break
            } catch let error as HarnessError where error.description.contains("already in use") && attempt < 8 {
                attempt += 1
                port = Int.random(in: 28000..<30000)
            }
        }
        self.port = port
        httpPort = port - 10000
    }

    private static let counter = Atomic<Int>(0)
    private static func nextIndex() -> Int {
        counter.add(1, ordering: .relaxed).newValue - 1
    }

    /// The address nginx listens on, as a URL writes it (`127.0.0.1`, or `[::1]`).
    public var host: String { environment["RTMP_LISTEN"] ?? "127.0.0.1" }

    public func url(app: String, name: String, query: String? = nil) -> String {
        "rtmp://\(host):\(port)/\(app)/\(name)" + (query.map { "?" + $0 } ?? "")
    }

    /// The recording of stream `name` in the `rec` app.
    public func recording(_ name: String) -> URL { state.appendingPathComponent("rec/\(name).flv") }

    /// nginx's error log; with `RTMP_LOG_LEVEL=debug` it shows what nginx-rtmp parsed
    /// (`codec: data frame: …`, `AMF func '@setdataframe'`).
    public func errorLog() -> String {
        (try? String(contentsOf: state.appendingPathComponent("logs/error.log"), encoding: .utf8)) ?? ""
    }

    /// Every recording of stream `name` with `RTMP_RECORD_UNIQUE=on` (`name-<epoch seconds>.flv`),
    /// oldest first.
    public func uniqueRecordings(_ name: String) throws -> [URL] {
        let directory = state.appendingPathComponent("rec")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix(name + "-") && $0.hasSuffix(".flv") }
            .sorted()
            .map { directory.appendingPathComponent($0) }
    }

    /// nginx's worker processes (children of the master), which hold the connections.
    public func workerPIDs() throws -> [pid_t] {
        let master = try String(contentsOf: state.appendingPathComponent("launcher.pid"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let result = try ProcessRunner.run("/usr/bin/pgrep", ["-P", master])
        return result.stdout.split(separator: "\n").compactMap { pid_t($0) }
    }

    /// nginx-rtmp's control API: the server drops the publisher of `app/name`.
    public func dropPublisher(app: String, name: String) throws {
        let url = "http://\(host):\(httpPort)/control/drop/publisher?app=\(app)&name=\(name)"
        let result = try ProcessRunner.run("/usr/bin/env", (namespace?.execPrefix ?? []) + ["curl", "-sf", url], timeout: 10)
        guard result.status == 0 else { throw HarnessError("control/drop failed (\(result.status)): \(result.stderr)") }
    }

    /// Graceful: sessions finish and recordings are closed.
    public func stop() throws { try run("stop") }
    /// SIGKILL, as a crash or a power cut would end it.
    public func kill() throws { try run("kill") }
    public func start() throws { try run("start") }

    private func run(_ command: String) throws {
        try Self.runScript(command, state: state, port: port, environment: environment, namespace: namespace)
    }

    private static func runScript(_ command: String, state: URL, port: Int, environment: [String: String],
                                  namespace: (any CommandPrefixing)?) throws {
        let script = Project.root.appendingPathComponent("scripts/rtmp-server").path
        let settings = ["RTMP_STATE=\(state.path)", "RTMP_PORT=\(port)", "RTMP_HTTP_PORT=\(port - 10000)"]
            + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let result = try ProcessRunner.run(
            "/usr/bin/env", (namespace?.execPrefix ?? []) + ["/usr/bin/env"] + settings + [script, command], timeout: 30)
        guard result.status == 0 else {
            throw HarnessError("rtmp-server \(command) failed (\(result.status)): \(result.stderr)")
        }
    }

    deinit { try? run("stop") }
}
