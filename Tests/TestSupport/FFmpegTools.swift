import Foundation

/// Runs ffmpeg and ffprobe — tools nobody here wrote, and so the judges of what Camcast produces.
/// Every test target goes through here: one place finds them, runs them (ProcessRunner: output to
/// files, so a large stdout cannot block the child) and says what went wrong.
public enum FFmpegTools {
    public struct Missing: Error, CustomStringConvertible {
        public var tool: String
        public var description: String { "\(tool) is not installed (apt-get install ffmpeg, or scripts/install-deps)" }
    }

    public struct Failed: Error, CustomStringConvertible {
        public var command: String
        public var status: Int32
        public var stderr: String
        public var description: String { "\(command) exited \(status): \(stderr)" }

        public init(command: String, status: Int32, stderr: String) {
            self.command = command
            self.status = status
            self.stderr = stderr
        }
    }

    public static func path(of tool: String) throws(Missing) -> String {
        for directory in ["/usr/bin", "/usr/local/bin", "/bin"] {
            let candidate = "\(directory)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Missing(tool: tool)
    }

    /// Runs `tool` (`ffmpeg` or `ffprobe`) to completion, whatever its exit status, for a caller
    /// that judges the status and messages itself.
    public static func result(_ tool: String, _ arguments: [String], timeout: Double = 600) throws -> ProcessResult {
        try ProcessRunner.run(try path(of: tool), arguments, timeout: timeout)
    }

    /// Runs `tool` and returns its standard output; throws `Failed` if it exits non-zero or writes
    /// to standard error (called with `-v error`, it writes there only when something is wrong).
    public static func run(_ tool: String, _ arguments: [String], timeout: Double = 600) throws -> Data {
        let result = try result(tool, arguments, timeout: timeout)
        guard result.status == 0, result.stderr.isEmpty else {
            throw Failed(command: "\(tool) \(arguments.joined(separator: " "))", status: result.status, stderr: result.stderr)
        }
        return result.stdoutData
    }
}
