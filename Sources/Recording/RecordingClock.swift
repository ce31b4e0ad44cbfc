#if canImport(Glibc)
import Glibc
#endif

/// The clocks a recording reads: the wall clock names segments; CLOCK_BOOTTIME (which runs on
/// through a suspend and never jumps) ages the segments of this boot, so an NTP step after boot
/// neither makes a fresh file look old nor an old one young.
struct RecordingClock: Sendable {
    /// The wall clock; in debug builds, moved by a test's `DebugWallClockOffset`.
    var wallSeconds: @Sendable () -> Int = { Int(time(nil)) + DebugWallClockOffset.seconds() }
    var bootMilliseconds: @Sendable () -> Int64 = {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
    /// This boot's identity: a boot time means something only within the same boot.
    var bootID: String = Self.currentBootID()

    init() {}

    init(wallSeconds: @escaping @Sendable () -> Int, bootMilliseconds: @escaping @Sendable () -> Int64, bootID: String) {
        self.wallSeconds = wallSeconds
        self.bootMilliseconds = bootMilliseconds
        self.bootID = bootID
    }

    static func currentBootID() -> String {
        guard let file = fopen("/proc/sys/kernel/random/boot_id", "r") else { return "" }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return "" }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.filter { $0.isHexDigit || $0 == "-" }
    }
}
