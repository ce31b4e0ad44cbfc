/// A flag any thread sets or clears and async tasks await: `wait()` returns once it is set (at
/// once if it is now), or when the awaiting task is cancelled. For a lifecycle step a service
/// waits for exactly once or seldom — the pipeline attached, its first picture encoded — where a
/// loop that looks every few milliseconds would wake for nothing until then.
///
/// Waiters are continuations, not threads: nothing blocks, nothing polls.
public final class AwaitableFlag: Sendable {
    private struct State {
        var isSet = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Lock(State())

    public init() {}

    /// Sets the flag and resumes every waiter (outside the lock).
    public func set() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isSet = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Clears it: later waits wait for the next `set`.
    public func clear() {
        state.withLock { $0.isSet = false }
    }

    public var isSet: Bool { state.withLock { $0.isSet } }

    /// Tasks awaiting it now (tests).
    public var waiting: Int { state.withLock { $0.waiters.count } }

    /// Returns once the flag is set, or once the task is cancelled; true when set.
    @discardableResult
    public func wait() async -> Bool {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Under the lock, so that a cancellation either finds the continuation to resume
                // or, having run first, left the task cancelled for this check to see.
                let parked = state.withLock { state -> Bool in
                    guard !state.isSet, !Task.isCancelled else { return false }
                    state.waiters[id] = continuation
                    return true
                }
                if !parked { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
        return isSet
    }
}
