import Media
import Synchronization
import TestSupport
import Testing

/// Debug builds check where confined state is touched (issue 39 #6): a `ConditionLock` knows which
/// thread holds it, and a first-caller confinement binds to whoever calls first.
@Suite struct ConfinementCheckTests {
    #if DEBUG
    @Test("touching a ConditionLock's state without it held fails the check; with it held, and again after a wait, it passes")
    func conditionLockKnowsItsHolder() throws {
        let condition = ConditionLock()
        let caught = CaughtFailures()
        condition.heldCheck.catchFailures { caught.add($0) }
        condition.withLock { condition.assertHeld("the queue") }
        // A timed wait gives the lock up and takes it back: still held after it.
        condition.withLock {
            condition.wait(until: MonotonicTime.now())
            condition.assertHeld("the queue after a wait")
        }
        #expect(caught.all.isEmpty)

        condition.assertHeld("the queue")
        // Held, but by another thread.
        condition.lock()
        let other = try DedicatedThread { condition.assertHeld("the queue from another thread") }
        other.join()
        condition.unlock()
        #expect(caught.all == [
            "the queue touched without its lock held",
            "the queue from another thread touched without its lock held",
        ])
    }

    @Test("a first-caller confinement binds the first caller's thread: its later calls pass, another thread's fail")
    func theFirstCallerOwns() throws {
        let confinement = ThreadConfinement("the audio source")
        let caught = CaughtFailures()
        confinement.check.catchFailures { caught.add($0) }
        let owner = try DedicatedThread {
            confinement.assertOnFirstCaller("the first delivery")
            confinement.assertOnFirstCaller("the second delivery")
        }
        owner.join()
        #expect(caught.all.isEmpty)
        confinement.assertOnFirstCaller("a delivery")
        #expect(caught.all == ["a delivery ran off the audio source's thread"])
    }
    #endif
}
