#if canImport(Glibc)
import Glibc
#endif

/// A flag one thread raises to end another's timed wait at once: a source pacing itself to a
/// frame deadline sleeps here instead of in a bare clock_nanosleep, so a stop does not wait for
/// the next frame (one every 20 s at 0.05 fps).
///
/// A pthread condition variable on CLOCK_MONOTONIC (the clock frames are stamped with), so the
/// deadline is absolute and does not drift with wall-clock changes.
public final class WakeSignal: @unchecked Sendable {
    // @unchecked: the mutex and condition live at fixed heap addresses for the object's life and
    // `raised` is only read or written with the mutex held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var raised = false

    public init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Ends every wait now and every later one until `reset`.
    public func raise() {
        pthread_mutex_lock(mutex)
        raised = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Lowers the flag, for a thread that is started again.
    public func reset() {
        pthread_mutex_lock(mutex)
        raised = false
        pthread_mutex_unlock(mutex)
    }

    public var isRaised: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return raised
    }

    /// Waits until `deadline` on CLOCK_MONOTONIC or until `raise`, whichever comes first.
    /// Returns true when it was raised (the caller should stop), false when the deadline came.
    @discardableResult
    public func wait(until deadline: MonotonicTime) -> Bool {
        var ts = deadline.posixTimespec
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        // Spurious wake-ups and EINTR simply go round again; ETIMEDOUT is the deadline.
        while !raised {
            if pthread_cond_timedwait(condition, mutex, &ts) == ETIMEDOUT { break }
        }
        return raised
    }
}
