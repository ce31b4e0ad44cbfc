import Media
import Testing

/// Media's one lock, taken by two threads at once. Besides the count, this is the ThreadSanitizer
/// step's check of its own view: a contended `Mutex` is handed over in the kernel, where TSan cannot
/// see it, so without the TSan build's edges (Lock.swift) this test fails that step with a race
/// reported on the counter both threads change only under the lock.
@Suite struct LockTests {
    final class Shared: Sendable {
        let count = Lock<Int>(0)
    }

    @Test func contendedTakesFromTwoThreadsAreOrdered() throws {
        let shared = Shared()
        let rounds = 200_000
        let threads = try (0..<2).map { _ in
            try DedicatedThread { for _ in 0..<rounds { shared.count.withLock { $0 += 1 } } }
        }
        for thread in threads { thread.join() }
        #expect(shared.count.withLock { $0 } == 2 * rounds)
    }
}
