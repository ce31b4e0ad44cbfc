#if canImport(Glibc)
import Glibc
#endif

/// Whether the wall clock can be believed: a board without a real-time clock boots in 1970 (or at
/// its image's date) until NTP sets it. Set means systemd-timesyncd says it synchronised, or the
/// time is later than this build, which cannot predate itself.
struct SystemClock {
    /// systemd-timesyncd touches this once it has synchronised the clock.
    static let synchronisedFlag = "/run/systemd/timesync/synchronized"
    /// The release date of this code (2026-11-26 00:00 UTC); the installed binary's modification
    /// time moves it later (`init`).
    static let releaseSeconds = 1_795_651_200

    let buildSeconds: Int
    let synchronisedFlag: String

    init(buildSeconds: Int? = nil, synchronisedFlag: String = Self.synchronisedFlag) {
        self.buildSeconds = buildSeconds ?? max(Self.releaseSeconds, Self.executableTime() ?? 0)
        self.synchronisedFlag = synchronisedFlag
    }

    func isSet(now seconds: Int) -> Bool {
        seconds >= buildSeconds || access(synchronisedFlag, F_OK) == 0
    }

    /// The wall-clock time, in seconds, of a frame captured at `monotonicNanoseconds`.
    static func wallSeconds(ofMonotonic monotonicNanoseconds: UInt64) -> Int {
        var real = timespec()
        var mono = timespec()
        clock_gettime(CLOCK_REALTIME, &real)
        clock_gettime(CLOCK_MONOTONIC, &mono)
        let realNanos = Int64(real.tv_sec) * 1_000_000_000 + Int64(real.tv_nsec)
        let monoNanos = Int64(mono.tv_sec) * 1_000_000_000 + Int64(mono.tv_nsec)
        let frameReal = realNanos - (monoNanos - Int64(bitPattern: monotonicNanoseconds))
        return Int(frameReal.floorDivided(by: 1_000_000_000))
    }

    private static func executableTime() -> Int? {
        var info = stat()
        guard stat("/proc/self/exe", &info) == 0 else { return nil }
        return Int(info.st_mtim.tv_sec)
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }
}
