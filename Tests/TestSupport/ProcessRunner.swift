/// Runs child processes for tests: camcast itself, the RTMP server script, ffmpeg, system tools.
public enum ProcessRunner {
    /// Runs `executable` to completion, killing it after `timeout` seconds.
    public static func run(_ executable: String, _ arguments: [String], timeout: Double = 120) throws -> ProcessResult {
        let process = try start(executable, arguments)
        return try process.wait(timeout: timeout)
    }

    public static func start(_ executable: String, _ arguments: [String]) throws -> RunningProcess {
        try RunningProcess(executable: executable, arguments: arguments)
    }
}
