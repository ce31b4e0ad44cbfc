import Foundation
import Synchronization

/// PyAV from PyPI, which bundles FFmpeg 8: the reader nobody here wrote for what Debian 12's
/// ffmpeg 5.1 cannot read — Enhanced RTMP (`hvc1`) FLV files and RTMP streams. It lives in a
/// virtualenv that scripts/pyav-venv makes once (scripts/install-deps runs it; the first test on a
/// machine that never ran install-deps runs it here, which needs python3-venv and PyPI).
public enum PyAV {
    /// The virtualenv could not be made or found: says what scripts/pyav-venv reported.
    public struct Unavailable: Error, CustomStringConvertible {
        public var reason: String
        public var description: String {
            "PyAV (FFmpeg 8) is not available: \(reason) (scripts/pyav-venv needs python3-venv and PyPI; run scripts/install-deps)"
        }
    }

    /// The venv's python, made by scripts/pyav-venv the first time it is asked for in this
    /// process (the script is a quick no-op once the venv is complete, and takes a lock, so
    /// several test processes may ask at once).
    public static func python() throws(Unavailable) -> String {
        try cachedPython.withLock { cached throws(Unavailable) -> String in
            if let cached { return cached }
            let script = Project.root.appendingPathComponent("scripts/pyav-venv").path
            let result: ProcessResult
            do {
                result = try ProcessRunner.run(script, [], timeout: 900)
            } catch {
                throw Unavailable(reason: "could not run \(script): \(error)")
            }
            let path = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            guard result.status == 0, FileManager.default.isExecutableFile(atPath: path) else {
                throw Unavailable(reason: "scripts/pyav-venv exited \(result.status): \(result.stderr)")
            }
            cached = path
            return path
        }
    }

    private static let cachedPython = Mutex<String?>(nil)

    /// Where scripts/pyav-venv puts the venv (CAMCAST_PYAV_VENV overrides it, as there).
    public static var venvPath: String {
        ProcessInfo.processInfo.environment["CAMCAST_PYAV_VENV"] ?? "/var/cache/camcast-test/pyav-venv"
    }

    /// The venv is complete (scripts/pyav-venv writes the marker last), without making it.
    public static var isInstalled: Bool {
        FileManager.default.fileExists(atPath: venvPath + "/.camcast-complete")
            && FileManager.default.isExecutableFile(atPath: venvPath + "/bin/python")
    }

    /// For `.enabled(if:)` on tests that need ffmpeg (Debian's, to encode) and PyAV (FFmpeg 8, to
    /// read E-RTMP): they run where both are installed, and always with
    /// CAMCAST_TEST_REQUIRE_INTEGRATION=1 (scripts/test sets it), where a missing part — or a venv
    /// PyAV.python() cannot make — fails them instead of skipping.
    public static var interopTestsEnabled: Bool {
        ProcessInfo.processInfo.environment["CAMCAST_TEST_REQUIRE_INTEGRATION"] == "1"
            || (isInstalled && (try? FFmpegTools.path(of: "ffmpeg")) != nil)
    }

    public static let interopSkipReason =
        "needs ffmpeg with libx265 and the PyAV venv (scripts/install-deps, or scripts/pyav-venv); set CAMCAST_TEST_REQUIRE_INTEGRATION=1 to fail instead of skipping"

    /// Runs a Python snippet (`python -c`) with `arguments` as `sys.argv[1...]`, to completion,
    /// and returns its standard output; throws `FFmpegTools.Failed` if it exits non-zero.
    public static func run(_ script: String, _ arguments: [String] = [], timeout: Double = 300) throws -> String {
        let result = try ProcessRunner.run(try python(), ["-c", script] + arguments, timeout: timeout)
        guard result.status == 0 else {
            throw FFmpegTools.Failed(command: "pyav python -c <script> \(arguments.joined(separator: " "))", status: result.status, stderr: result.stderr)
        }
        return result.stdout
    }

    /// Starts a snippet without waiting for it: a one-shot RTMP server
    /// (`av.open("rtmp://…", options={"listen": "1"})`) that a test then publishes to.
    public static func start(_ script: String, _ arguments: [String] = []) throws -> RunningProcess {
        try ProcessRunner.start(try python(), ["-c", script] + arguments)
    }
}
