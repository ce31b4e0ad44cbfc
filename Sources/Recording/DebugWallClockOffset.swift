#if canImport(Glibc)
import Glibc
#endif

/// Test hook, debug builds only: `CAMCAST_DEBUG_RECORDING_WALL_CLOCK_FILE=/some/file` makes the
/// recorder read the wall clock as the real one plus the whole seconds written in that file
/// (negative goes back), read again at every look. It stands for NTP stepping the clock after
/// boot on a box without a real-time clock, which a test cannot do to the machine it shares:
/// `unshare --time` offsets only the monotonic and boot clocks, and libfaketime's LD_PRELOAD
/// cannot reach the static release binary. Only the recorder's wall clock moves; its monotonic
/// and boot clocks (segment lengths, ages) are the real ones, as after a real step.
///
/// Release builds ignore the variable.
enum DebugWallClockOffset {
    static let environmentVariable = "CAMCAST_DEBUG_RECORDING_WALL_CLOCK_FILE"

    /// Seconds to add to the real wall clock now; 0 without the hook.
    static func seconds() -> Int {
        #if DEBUG
        guard let path = getenv(environmentVariable), path.pointee != 0 else { return 0 }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return 0 }
        let text = String(decoding: bytes[..<count], as: UTF8.self).filter { $0 == "-" || $0.isNumber }
        return Int(text) ?? 0
        #else
        return 0
        #endif
    }
}
