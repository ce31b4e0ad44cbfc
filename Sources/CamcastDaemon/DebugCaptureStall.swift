#if canImport(Glibc)
import Glibc
#endif

/// Test hook, debug builds only: `CAMCAST_DEBUG_STALL_CAPTURE_WHILE_EXISTS=/some/file` makes the
/// capture thread block before each frame for as long as that file exists — a wedged driver, as
/// far as everything downstream can tell. Tests use it to show that the systemd watchdog pings stop
/// when frames stop, and that a stop signal still ends a daemon whose capture thread is stuck.
///
/// Release builds ignore the variable: nothing in production can stall the pipeline on purpose.
struct DebugCaptureStall: Sendable {
    static let environmentVariable = "CAMCAST_DEBUG_STALL_CAPTURE_WHILE_EXISTS"
    let path: String

    static func fromEnvironment() -> DebugCaptureStall? {
        #if DEBUG
        guard let path = getenv(environmentVariable).map({ String(cString: $0) }), !path.isEmpty else { return nil }
        return DebugCaptureStall(path: path)
        #else
        return nil
        #endif
    }

    /// Blocks, checking every 10 ms, while the file exists. Deliberately deaf to stop requests:
    /// a stuck thread does not answer them either.
    func waitWhileStalled() {
        while access(path, F_OK) == 0 {
            usleep(10_000)
        }
    }
}
