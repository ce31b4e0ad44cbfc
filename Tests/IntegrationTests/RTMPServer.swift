import Foundation

/// A real nginx-rtmp on loopback, started through the project's `scripts/rtmp-server` in a state
/// directory and on ports of its own, so tests never share a server.
///
/// `environment` passes settings to the script (e.g. `RTMP_RECORD_UNIQUE=on`); `namespace` runs
/// nginx inside a network namespace, where a test may black-hole or throttle its traffic.
final class RTMPServer {
    let state: URL
    let port: Int
    let httpPort: Int
    let environment: [String: String]
    let namespace: NetworkNamespace?

    init(environment: [String: String] = [:], namespace: NetworkNamespace? = nil) throws {
        self.environment = environment
        self.namespace = namespace
        state = try Project.scratchDirectory("rtmp")
        // Ports from the pid and a counter: parallel test processes do not collide.
        port = 20000 + Int(getpid() % 2000) * 4 + RTMPServer.nextOffset()
        httpPort = port + 10000
        try run("start")
    }

    private nonisolated(unsafe) static var counter = 0
    private static let counterLock = NSLock()
    private static func nextOffset() -> Int {
        counterLock.lock()
        defer { counterLock.unlock() }
        counter += 1
        return counter % 4
    }

    func url(app: String, name: String) -> String { "rtmp://127.0.0.1:\(port)/\(app)/\(name)" }

    /// The recording of stream `name` in the `rec` app.
    func recording(_ name: String) -> URL { state.appendingPathComponent("rec/\(name).flv") }

    /// Every recording of stream `name` with `RTMP_RECORD_UNIQUE=on` (`name-<epoch seconds>.flv`),
    /// oldest first.
    func uniqueRecordings(_ name: String) throws -> [URL] {
        let directory = state.appendingPathComponent("rec")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix(name + "-") && $0.hasSuffix(".flv") }
            .sorted()
            .map { directory.appendingPathComponent($0) }
    }

    /// nginx's worker processes (children of the master), which hold the connections.
    func workerPIDs() throws -> [pid_t] {
        let master = try String(contentsOf: state.appendingPathComponent("launcher.pid"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let result = try ProcessRunner.run("/usr/bin/pgrep", ["-P", master])
        return result.stdout.split(separator: "\n").compactMap { pid_t($0) }
    }

    /// nginx-rtmp's control API: the server drops the publisher of `app/name`.
    func dropPublisher(app: String, name: String) throws {
        let url = "http://127.0.0.1:\(httpPort)/control/drop/publisher?app=\(app)&name=\(name)"
        let result = try ProcessRunner.run("/usr/bin/env", (namespace?.execPrefix ?? []) + ["curl", "-sf", url], timeout: 10)
        guard result.status == 0 else { throw HarnessError("control/drop failed (\(result.status)): \(result.stderr)") }
    }

    func stop() throws { try run("stop") }
    func kill() throws { try run("kill") }
    func start() throws { try run("start") }

    private func run(_ command: String) throws {
        let script = Project.root.appendingPathComponent("scripts/rtmp-server").path
        let settings = ["RTMP_STATE=\(state.path)", "RTMP_PORT=\(port)", "RTMP_HTTP_PORT=\(httpPort)"]
            + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let result = try ProcessRunner.run(
            "/usr/bin/env", (namespace?.execPrefix ?? []) + ["/usr/bin/env"] + settings + [script, command], timeout: 30)
        guard result.status == 0 else {
            throw HarnessError("rtmp-server \(command) failed (\(result.status)): \(result.stderr)")
        }
    }

    deinit { try? run("stop") }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
