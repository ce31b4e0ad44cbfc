#if canImport(Glibc)
import Glibc
#endif

/// Test hook, debug builds only: `CAMCAST_DEBUG_STALL_CAPTURE_WHILE_EXISTS=/some/file` makes the
/// capture thread block before each frame for as long as that file exists — a wedged driver, as
/// far as everything downstream can tell. Tests use it to show that the systemd watchdog pings stop
/// when frames stop, and that a stop signal still ends a daemon whose capture thread is stuck.
///
/// `CAMCAST_DEBUG_STALL_START_WHILE_EXISTS=/some/file` blocks the start the same way, where the
/// camera opens: a device whose open hangs. Tests use it to show that a blocked open does not
/// stall the cooperative pool (signals are still heard).
///
/// Release builds ignore the variables: nothing in production can stall the pipeline on purpose.
struct DebugCaptureStall: Sendable {
    static let environmentVariable = "CAMCAST_DEBUG_STALL_CAPTURE_WHILE_EXISTS"
    let path: String

    static let startEnvironmentVariable = "CAMCAST_DEBUG_STALL_START_WHILE_EXISTS"

    static func fromEnvironment() -> DebugCaptureStall? { named(environmentVariable) }

    static func startFromEnvironment() -> DebugCaptureStall? { named(startEnvironmentVariable) }

    private static func named(_ variable: String) -> DebugCaptureStall? {
        #if DEBUG
        guard let path = getenv(variable).map({ String(cString: $0) }), !path.isEmpty else { return nil }
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
