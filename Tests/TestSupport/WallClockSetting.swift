#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Two settings of CLOCK_REALTIME that move it by nothing in all (`clock_adjtime` with
/// `ADJ_SETOFFSET`: 1 ns forward, then 1 ns back): the kernel treats each as any setting of the
/// clock — every wall-clock timer armed with `TFD_TIMER_CANCEL_ON_SET` is cancelled, as at NTP's
/// step — while the machine's clock ends where it was (re-setting it to the time just read would
/// move it back by the time in between; a step of 0 is no setting: the kernel cancels timers only
/// when the wall clock's offset changed). Needs CAP_SYS_TIME.
///
/// Glibc's Swift module exports neither `clock_adjtime` nor `struct timex`: the function is looked
/// up by name and the structure laid out by hand (x86-64 and arm64 Linux: 208 bytes, `modes` at 0,
/// `time` at 72: seconds, then nanoseconds with `ADJ_NANO`).
public enum WallClockSetting {
    private typealias ClockAdjust = @convention(c) (Int32, UnsafeMutableRawPointer) -> Int32
    private static let setOffset: UInt32 = 0x0100  // ADJ_SETOFFSET
    private static let nanosecondUnit: UInt32 = 0x2000  // ADJ_NANO

    /// True when the clock was "set".
    public static func byNothing() -> Bool {
        step(seconds: 0, nanoseconds: 1) && step(seconds: -1, nanoseconds: 999_999_999)
    }

    /// Steps the clock by `seconds` + `nanoseconds` (0 ≤ nanoseconds < 10^9, as the kernel wants).
    private static func step(seconds: Int, nanoseconds: Int) -> Bool {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "clock_adjtime") else { return false }
        let adjust = unsafeBitCast(symbol, to: ClockAdjust.self)
        let change = UnsafeMutableRawPointer.allocate(byteCount: 208, alignment: 8)
        defer { change.deallocate() }
        change.initializeMemory(as: UInt8.self, repeating: 0, count: 208)
        change.storeBytes(of: setOffset | nanosecondUnit, as: UInt32.self)
        change.storeBytes(of: seconds, toByteOffset: 72, as: Int.self)
        change.storeBytes(of: nanoseconds, toByteOffset: 80, as: Int.self)
        return adjust(CLOCK_REALTIME, change) >= 0
    }

    /// Whether this process may set the clock (tried once, by a setting of nothing).
    public static let isPermitted = byNothing()

    /// The clock is the machine's, shared by every test of the bundle, which runs suites side by
    /// side: a test that sets it and a test a setting disturbs (a wall-clock wait that must end at
    /// its instant or its bound, a count of a schedule's looks) run one at a time, each inside this.
    /// Seen without it: a wait for its instant woke as `.clockSet`, 1 run in 2 of the unit suites.
    public static func exclusively<Result>(_ body: () throws -> Result) rethrows -> Result {
        exclusion.lock()
        defer { exclusion.unlock() }
        return try body()
    }

    private static let exclusion = NSLock()
}
