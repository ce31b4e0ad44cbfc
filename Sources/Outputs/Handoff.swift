import Media

/// One value that a thread doing file I/O hands to a caller who waits for it a bounded time and
/// may leave: a file output's open (the caller waits a moment, so a path that fails at once keeps
/// its clear error, but an open that hangs on a dead mount holds the writer thread, not the start
/// or the reload), or a start check's look at an output's folder.
package final class Handoff<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `state` is only read or written with `lock` held, and that is structural: every
    // access is inside a `withLock` in the method that touches it.
    private enum State {
        case waiting
        case handed(Value)
        /// The caller stopped waiting: the value is the thread's to deal with.
        case callerLeft
    }

    private let lock = ConditionLock()
    private var state = State.waiting

    package init() {}

    /// From the thread. False if the caller no longer waits for it.
    package func hand(_ value: Value) -> Bool {
        lock.withLock {
            guard case .waiting = state else { return false }
            state = .handed(value)
            lock.broadcast()
            return true
        }
    }

    /// The value if it comes within `seconds`; nil if not: the caller leaves, and `hand` says so
    /// to the thread. `leaving` runs as the caller leaves, before a `hand` can return (so what it
    /// marks cannot overwrite what the thread marks next); it must be short and do no I/O.
    package func value(within seconds: Double, leaving: () -> Void = {}) -> Value? {
        let deadline = MonotonicTime.now().adding(nanoseconds: UInt64(max(0, seconds) * 1e9))
        return lock.withLock {
            while case .waiting = state {
                if !lock.wait(until: deadline) { break }
            }
            guard case .handed(let value) = state else {
                state = .callerLeft
                leaving()
                return nil
            }
            return value
        }
    }
}
