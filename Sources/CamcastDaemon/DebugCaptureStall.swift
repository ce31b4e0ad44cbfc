#if canImport(Glibc)
import Glibc
import Media
#endif

/// Test hook, debug builds only: `CAMCAST_DEBUG_STALL_CAPTURE_WHILE_EXISTS=/some/file` makes the
/// capture thread block before each frame for as long as that file exists — a wedged driver, as
/// far as everything downstream can tell. Tests use it to show that the systemd watchdog pings stop
/// when frames stop, and that a stop signal still ends a daemon whose capture thread is stuck.
///
/// `startPathInProcess` blocks a pipeline's start the same way, where the camera opens: a device
/// whose open hangs. An in-process test uses it to show that a blocked open leaves the task's
/// executor free.
///
/// Release builds ignore both: nothing in production can stall the pipeline on purpose.
struct DebugCaptureStall: Sendable {
    static let environmentVariable = "CAMCAST_DEBUG_STALL_CAPTURE_WHILE_EXISTS"
    let path: String

    static func fromEnvironment() -> DebugCaptureStall? { named(environmentVariable) }

    /// The start hook (debug builds only), set by an in-process test rather than through the
    /// environment, which every daemon the test process starts meanwhile would inherit.
    static let startPathInProcess = Lock<String?>(nil)

    static func forStart() -> DebugCaptureStall? {
        #if DEBUG
        return startPathInProcess.withLock { $0 }.map { DebugCaptureStall(path: $0) }
        #else
        return nil
        #endif
    }

    private static func named(_ variable: String) -> DebugCaptureStall? {
        #if DEBUG
        guard let path = getenv(variable).map({ String(cString: $0) }), !path.isEmpty else { return nil }
        return DebugCaptureStall(path: path)
        #else
        return nil
        #endif
    }

    /// Blocks while the file exists. Deliberately deaf to stop requests: a stuck thread does not
    /// answer them either. Sleeps on inotify, on the file's directory (its removal or a rename
    /// away), not on a period: each event in the directory makes it look whether the file is
    /// still there. The common case, no file, costs one access(2) per frame as before.
    func waitWhileStalled() {
        guard access(path, F_OK) == 0 else { return }
        let watch = inotify_init1(Int32(IN_CLOEXEC))
        guard watch >= 0 else { return }
        defer { close(watch) }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]).isEmpty ? "/" : String(path[..<$0]) } ?? "."
        // Watched before the look below, so that a removal between the two is an event.
        guard inotify_add_watch(watch, directory, UInt32(IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF)) >= 0 else { return }
        var events = [UInt8](repeating: 0, count: 4096)
        while access(path, F_OK) == 0 {
            let count = events.withUnsafeMutableBytes { read(watch, $0.baseAddress, $0.count) }
            // EINTR: look again; any other failure (a bug) must not spin, nor stall for good.
            if count < 0 && errno != EINTR { return }
        }
    }
}
