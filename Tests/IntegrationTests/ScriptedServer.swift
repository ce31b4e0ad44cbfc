import Foundation
import TestSupport

/// A Python RTMP server of scripts/ (hostile-rtmp-server, reconnect-request-rtmp-server), started
/// in `group`, which writes the port it listens on to the file named after `--port-file`.
enum ScriptedServer {
    /// The server and its port; a server that exits first (python3 missing, a bad argument) ends
    /// the wait at once. One that does not start is stopped and the error names it.
    static func start(_ script: String, _ arguments: [String], portFile: String, in group: ProcessGroup) throws -> (RunningProcess, Int) {
        let path = Project.root.appendingPathComponent("scripts/\(script)").path
        let server = try group.start("/usr/bin/env", ["python3", path] + arguments + ["--port-file", portFile])
        // The wait ends as soon as the port file is written or the server exits; the deadline only
        // stops a hung interpreter, so it is a safety net far above any start, not a claim. 20 s
        // was passed once: HostileServerTests' ten servers starting beside ten ASan daemons on a
        // 2-core machine at load 16 (the README's AddressSanitizer run; run alone there, the whole
        // attack test took 31 s).
        let deadline = Date().addingTimeInterval(120)
        var port: Int?
        while port == nil && Date() < deadline && !server.hasExited {
            port = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if port == nil { usleep(50_000) }
        }
        guard let port else {
            server.stop()
            throw HarnessError("\(script) \(arguments.first ?? "") did not start (python3 missing?): \(server.stderrSoFar)")
        }
        return (server, port)
    }
}
