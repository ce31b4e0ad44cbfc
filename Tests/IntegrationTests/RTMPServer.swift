import Foundation

/// A real nginx-rtmp on loopback, started through the project's `scripts/rtmp-server` in a state
/// directory and on ports of its own, so tests never share a server.
final class RTMPServer {
    let state: URL
    let port: Int
    let httpPort: Int

    init() throws {
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

    func stop() throws { try run("stop") }
    func kill() throws { try run("kill") }
    func start() throws { try run("start") }

    private func run(_ command: String) throws {
        let script = Project.root.appendingPathComponent("scripts/rtmp-server").path
        let result = try ProcessRunner.run(
            "/usr/bin/env",
            ["RTMP_STATE=\(state.path)", "RTMP_PORT=\(port)", "RTMP_HTTP_PORT=\(httpPort)", script, command],
            timeout: 30)
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
