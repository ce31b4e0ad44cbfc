#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wall-clock time for what an operator compares with other machines (since when, last publish).
/// Durations use the monotonic clock instead.
public enum WallClock {
    public static func nowMilliseconds() -> Int {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int(spec.tv_sec) * 1000 + Int(spec.tv_nsec) / 1_000_000
    }
}
