import Foundation

/// A child process whose output is collected into files (no pipe can fill up and block it).
///
/// Spawned with posix_spawn and reaped with waitpid, so a timeout is a plain polling loop and does
/// not depend on Foundation's child-process monitoring. The files are deleted with this object:
/// ffmpeg's raw video output can be a hundred megabytes.
public final class RunningProcess {
    public let pid: pid_t
    private let directory: URL
    private let outPath: String
    private let errPath: String
    private let started = Date()
    private var exitStatus: Int32?

    init(executable: String, arguments: [String]) throws {
        directory = try Project.scratchDirectory("proc")
        outPath = directory.appendingPathComponent("stdout").path
        errPath = directory.appendingPathComponent("stderr").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The child starts with no signal blocked and every signal at its default, as systemd or
        // a shell starts a program: the spawning thread's mask (the test runner's threads block
        // nearly all of them) and its ignored signals would otherwise be inherited, and a SIGINT
        // or SIGTERM sent to end a tool (srt-live-transmit, which then writes out what it has)
        // would stay pending for ever.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        // The child gets the test's whole environment: camcast must ignore the CAMCAST_TEST_*
        // switches while rejecting any other unknown CAMCAST_* name.
        var child = pid_t()
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard result == 0 else {
            try? FileManager.default.removeItem(at: directory)
            throw HarnessError("could not start \(executable): errno \(result)")
        }
        pid = child
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    public var stderrSoFar: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }
    public var stdoutSoFar: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }

    public func signal(_ signal: Int32) { kill(pid, signal) }

    /// Whether the child has exited (it is reaped then).
    public var hasExited: Bool { reap() }

    /// Kills the child (SIGKILL) unless it has already been reaped, and reaps it; for cleanup on
    /// a test's failure paths, where its output no longer matters. Never signals a reaped pid,
    /// which the system may have given to another process.
    public func stop() {
        guard !reap() else { return }
        kill(pid, SIGKILL)
        while !reap() { usleep(10_000) }
    }

    /// Reaps the child if it has exited; true once it has.
    private func reap() -> Bool {
        if exitStatus != nil { return true }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return false }
        // WIFEXITED / WEXITSTATUS, and 128 + signal for a killed child, as a shell reports it.
        exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return true
    }

    public func wait(timeout: Double) throws -> ProcessResult {
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
            stdoutData: (try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data(),
            stderr: stderrSoFar,
            seconds: Date().timeIntervalSince(started))
    }
}
