import Media
import Synchronization

/// Why the pipeline stops. The first reason given wins; later ones are ignored.
enum StopReason: Sendable {
    case shutdownRequested
    case durationElapsed
    /// A file source reached the end of its clip (not looping, or standard input closed).
    case sourceEnded
    case failed(PipelineError)
}

/// A one-shot signal that any thread can fire and one task awaits.
final class StopSignal: Sendable {
    private struct State {
        var reason: StopReason?
        var waiters: [CheckedContinuation<StopReason, Never>] = []
    }

    private let state = Lock(State())
    /// Raised once `state.reason` is set: the frame path asks on every frame, without the lock.
    private let fired = Atomic<Bool>(false)

    func fire(_ reason: StopReason) {
        let waiters = state.withLock { state -> [CheckedContinuation<StopReason, Never>] in
            guard state.reason == nil else { return [] }
            state.reason = reason
            fired.store(true, ordering: .releasing)
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: reason) }
    }

    var hasFired: Bool { fired.load(ordering: .acquiring) }

    func wait() async -> StopReason {
        await withCheckedContinuation { continuation in
            let reason = state.withLock { state -> StopReason? in
                if let reason = state.reason { return reason }
                state.waiters.append(continuation)
                return nil
            }
            if let reason { continuation.resume(returning: reason) }
        }
    }
}
