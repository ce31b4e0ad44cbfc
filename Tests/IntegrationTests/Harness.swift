import Foundation
import Testing

/// Where the package lives and where `swift build` put the `camcast` binary.
enum Project {
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var camcastBinary: URL {
        if let path = ProcessInfo.processInfo.environment["CAMCAST_BINARY"] { return URL(fileURLWithPath: path) }
        return root.appendingPathComponent(".build/debug/camcast")
    }

    /// A fresh directory under /tmp for one test's files.
    static func scratchDirectory(_ name: String) throws -> URL {
        let url = URL(fileURLWithPath: "/tmp/camcast-tests/\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Which real parts this machine has. With CAMCAST_TEST_REQUIRE_INTEGRATION=1 (the test command sets it)
/// the integration tests run regardless, so a missing part fails loudly instead of skipping.
enum Environment {
    static let requireIntegration = ProcessInfo.processInfo.environment["CAMCAST_TEST_REQUIRE_INTEGRATION"] == "1"

    static func hasExecutable(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
        }
    }

    static var hasRTMPServerParts: Bool {
        FileManager.default.fileExists(atPath: "/usr/lib/nginx/modules/ngx_rtmp_module.so") && hasExecutable("nginx")
            && hasExecutable("ffprobe") && hasExecutable("ffmpeg")
    }

    static var rtmpIntegrationEnabled: Bool { requireIntegration || hasRTMPServerParts }
    static let rtmpSkipReason: Comment =
        "needs nginx, libnginx-mod-rtmp and ffmpeg (scripts/install-deps); set CAMCAST_TEST_REQUIRE_INTEGRATION=1 to fail instead of skipping"
}

/// The output of a finished child process.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
    var seconds: Double
}

enum ProcessRunner {
    /// Runs `executable` to completion, killing it after `timeout` seconds.
    static func run(_ executable: String, _ arguments: [String], timeout: Double = 120) throws -> ProcessResult {
        let process = try start(executable, arguments)
        return try process.wait(timeout: timeout)
    }

    static func start(_ executable: String, _ arguments: [String]) throws -> RunningProcess {
        try RunningProcess(executable: executable, arguments: arguments)
    }
}

/// A child process whose output is collected into files (no pipe can fill up and block it).
///
/// Spawned with posix_spawn and reaped with waitpid, so a timeout is a plain polling loop and does
/// not depend on Foundation's child-process monitoring.
final class RunningProcess {
    let pid: pid_t
    private let outPath: String
    private let errPath: String
    private let started = Date()
    private var exitStatus: Int32?

    init(executable: String, arguments: [String]) throws {
        let dir = try Project.scratchDirectory("proc")
        outPath = dir.appendingPathComponent("stdout").path
        errPath = dir.appendingPathComponent("stderr").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The child gets the test's whole environment: camcast must ignore the CAMCAST_TEST_*
        // switches while rejecting any other unknown CAMCAST_* name.
        var child = pid_t()
        let result = posix_spawn(&child, executable, &actions, nil, argv, environ)
        guard result == 0 else { throw HarnessError("could not start \(executable): errno \(result)") }
        pid = child
    }

    var stderrSoFar: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

    func signal(_ signal: Int32) { kill(pid, signal) }

    /// Reaps the child if it has exited; true once it has.
    private func reap() -> Bool {
        if exitStatus != nil { return true }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return false }
        // WIFEXITED / WEXITSTATUS, and 128 + signal for a killed child, as a shell reports it.
        exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return true
    }

    func wait(timeout: Double) throws -> ProcessResult {
        let deadline = Date().addingTimeInterval(timeout)
        while !reap() && Date() < deadline { usleep(20_000) }
        if !reap() {
            kill(pid, SIGTERM)
            usleep(500_000)
            if !reap() { kill(pid, SIGKILL) }
            while !reap() { usleep(10_000) }
        }
        return ProcessResult(
            status: exitStatus!,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
            seconds: Date().timeIntervalSince(started))
    }
}
