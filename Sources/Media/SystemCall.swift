#if canImport(Glibc)
import Glibc
#endif

/// The one place in Camcast that runs a system call: retries EINTR (a signal is not a failure)
/// and turns a −1 result into a `SystemCallError` naming the call, as swift-nio's
/// `syscall(blocking:)` does. Every module that touches a file descriptor goes through it.
public enum SystemCall {
    /// Runs `body` until it returns something other than −1 with errno EINTR.
    /// - Parameter call: the call's name for the error ("open", "VIDIOC_DQBUF").
    @discardableResult
    public static func run<Result: BinaryInteger>(
        _ call: @autoclosure () -> String, _ body: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = errno
            if code == EINTR { continue }
            throw SystemCallError(call: call(), errno: code)
        }
    }

    /// Writes all of `bytes` to `descriptor`, however many calls it takes (a short write is not
    /// an error: a pipe or a signal can cut one short).
    public static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], call: String = "write") throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            offset += try run(call) {
                bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            }
        }
    }

    /// Waits until `descriptor` is ready for `events` (POLLIN, POLLOUT) or `deadline` passes;
    /// true when it is ready. A signal does not end the wait early: the time left is worked out
    /// again and the wait goes on, so a deadline is a deadline however many signals arrive.
    public static func poll(_ descriptor: Int32, events: Int32, until deadline: ContinuousClock.Instant) throws(SystemCallError) -> Bool {
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return false }
            let milliseconds = Int32(clamping: remaining.clampedMillisecondsRoundedUp)
            var request = pollfd(fd: descriptor, events: Int16(events), revents: 0)
            if try run("poll", { Glibc.poll(&request, 1, milliseconds) }) > 0 { return true }
        }
    }

    /// Sleeps for `nanoseconds` on CLOCK_MONOTONIC, whatever signals arrive meanwhile.
    /// For a sleep that must end early on request, wait on a `WakeEvent` instead.
    public static func sleep(nanoseconds: UInt64) {
        guard nanoseconds > 0 else { return }
        sleep(until: MonotonicTime.now().adding(nanoseconds: nanoseconds))
    }

    /// Sleeps until `deadline` on CLOCK_MONOTONIC (an absolute deadline does not drift with the
    /// time spent between two sleeps). clock_nanosleep returns its error instead of setting errno.
    public static func sleep(until deadline: MonotonicTime) {
        var ts = deadline.posixTimespec
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}

extension MonotonicTime {
    var posixTimespec: timespec {
        timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}
