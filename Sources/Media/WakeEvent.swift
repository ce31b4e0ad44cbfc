#if canImport(Glibc)
import Glibc
#endif
internal import CEventFD

/// An eventfd one thread signals to end another's wait at once: a source's pacing sleep (through
/// `SourceThread`), and a device or pipe loop that polls its fd beside the device's. Owns the fd and
/// closes it in `deinit`.
///
/// Why a thread's timed pacing waits here and not on `ConditionLock`: a sleep to the next frame
/// guards no shared state, so it needs no mutex. `ConditionLock` takes its mutex for every wait and
/// again on every wake-up, two lock takes per frame for nothing; this waits in the kernel (ppoll)
/// with the deadline as the timeout and takes none. Queue hand-offs, whose waits do guard state
/// (the queue), stay on `ConditionLock`.
///
/// Level-triggered: a signal stays until `reset`, so a signal given before a wait begins still ends
/// that wait (and every later one) at once, and many signals count as one.
public final class WakeEvent: Sendable {
    /// For poll(2) beside another fd: readable while signalled.
    public let fd: Int32

    public init() throws(SystemCallError) {
        fd = try SystemCall.run("eventfd") { ceventfd_open() }
    }

    deinit {
        close(fd)
    }

    /// Ends every wait now and every later one until `reset`.
    public func signal() {
        ceventfd_signal(fd)
    }

    /// Clears the signal, for a thread that is started again or a reader that resumes.
    public func reset() {
        ceventfd_drain(fd)
    }

    public var isSignalled: Bool {
        ceventfd_wait(fd, 0) > 0
    }

    /// Blocks until `signal()` has been called (at any time before or during the wait).
    public func wait() {
        // Round again only after a signal to the process (EINTR); a broken fd (a bug) must not spin.
        while ceventfd_wait(fd, -1) == -1 && errno == EINTR {}
    }

    /// Blocks until `signal()` has been called or `milliseconds` have passed (-1: without end),
    /// whichever comes first; returns whether it was signalled.
    @discardableResult
    public func wait(milliseconds: Int32) -> Bool {
        if milliseconds < 0 {
            wait()
            return true
        }
        return wait(until: MonotonicTime.now().adding(nanoseconds: UInt64(milliseconds) * 1_000_000))
    }

    /// Waits until `deadline` on CLOCK_MONOTONIC or until `signal`, whichever comes first, without
    /// a lock. Returns true when signalled (a signal already given wins over a deadline already
    /// past: a stop is never mistaken for one more tick), false when the deadline came.
    /// A signal to the process does not end the wait early: the time left is worked out again.
    @discardableResult
    public func wait(until deadline: MonotonicTime) -> Bool {
        while true {
            let remaining = max(0, deadline.nanoseconds(since: .now()))
            switch ceventfd_wait(fd, remaining) {
            case 0: return false
            case -1 where errno == EINTR: continue
            case -1:
                // Nothing but a broken fd (a bug) gets here; sleeping out the deadline keeps a
                // pacing loop paced rather than spinning, at the price of the early wake-up.
                SystemCall.sleep(until: deadline)
                return isSignalled
            default: return true
            }
        }
    }
}
