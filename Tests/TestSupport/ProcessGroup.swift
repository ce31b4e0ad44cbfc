/// The processes one test started (servers, daemons), so that a `defer` can stop all of them
/// however the test ends: a throw halfway through starting them must not leave the first ones
/// running after the test.
public final class ProcessGroup {
    public private(set) var processes: [RunningProcess] = []

    public init() {}

    /// Starts a process as `ProcessRunner.start` does and keeps it for `stopAll`.
    public func start(_ executable: String, _ arguments: [String]) throws -> RunningProcess {
        let process = try ProcessRunner.start(executable, arguments)
        processes.append(process)
        return process
    }

    /// Kills and reaps every process still running; those already waited for are left alone.
    public func stopAll() {
        processes.forEach { $0.stop() }
    }
}
