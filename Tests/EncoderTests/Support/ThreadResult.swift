import Foundation
import Synchronization

extension Thread {
    /// Runs `body` on a new thread; `wait()` on the result blocks until it has finished.
    static func detachNewThreadReturning<T: Sendable>(_ body: @escaping @Sendable () -> T) -> ThreadResult<T> {
        let result = ThreadResult<T>()
        Thread.detachNewThread { result.set(body()) }
        return result
    }
}

/// The value a detached thread returns, handed over once it is done.
final class ThreadResult<T: Sendable>: Sendable {
    private let value = Mutex<T?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func set(_ newValue: T) {
        value.withLock { $0 = newValue }
        done.signal()
    }

    func wait() -> T {
        done.wait()
        return value.withLock { $0! }
    }
}
