#if canImport(Glibc)
import Glibc
#endif

/// A flag one thread raises to end another's timed wait at once: a source pacing itself to a
/// frame deadline sleeps here instead of in a bare clock_nanosleep, so a stop does not wait for
/// the next frame (one every 20 s at 0.05 fps).
///
/// The deadline is absolute on CLOCK_MONOTONIC (the clock frames are stamped with), through
/// `ConditionLock`, so it does not drift with wall-clock changes.
public final class WakeSignal: @unchecked Sendable {
    // @unchecked: `raised` is only read or written with `lock` held.
    private let lock = ConditionLock()
    private var raised = false

    public init() {}

    /// Ends every wait now and every later one until `reset`.
    public func raise() {
        lock.withLock {
            raised = true
            lock.broadcast()
        }
    }

    /// Lowers the flag, for a thread that is started again.
    public func reset() {
        lock.withLock { raised = false }
    }

    public var isRaised: Bool {
        lock.withLock { raised }
    }

    /// Waits until `deadline` on CLOCK_MONOTONIC or until `raise`, whichever comes first.
    /// Returns true when it was raised (the caller should stop), false when the deadline came.
    @discardableResult
    public func wait(until deadline: MonotonicTime) -> Bool {
        lock.withLock {
            // Spurious wake-ups simply go round again; a false return is the deadline.
            while !raised {
                if !lock.wait(until: deadline) { break }
            }
            return raised
        }
    }
}
