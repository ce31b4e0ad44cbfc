import Media
import Synchronization
import TestSupport
import Testing

/// The one hand-off between stages: bounded, in order, dropping or waiting as the pusher says,
/// and (debug builds) refusing a push made with a lock held.
@Suite struct StageQueueTests {
    @Test("in order; a full queue refuses `.drop`, takes `.exceed`; a closed one gives what it holds, then nil")
    func boundedInOrderAndDrainedAfterClose() {
        let queue = StageQueue<Int>(capacity: 2)
        #expect(queue.push(1, whenFull: .drop))
        #expect(queue.push(2, whenFull: .drop))
        #expect(!queue.push(3, whenFull: .drop))
        #expect(queue.push(4, whenFull: .exceed))
        #expect(queue.depth == 3)
        queue.close()
        #expect(!queue.push(5, whenFull: .exceed))
        #expect([queue.pop(), queue.pop(), queue.pop(), queue.pop()] == [1, 2, 4, nil])
    }

    @Test("`.wait` waits for room: every item arrives, in order, through a queue of one")
    func waitingPushersLoseNothing() throws {
        let queue = StageQueue<Int>(capacity: 1)
        let taken = Mutex<[Bool]>([])
        let pusher = try DedicatedThread {
            let results = (0..<200).map { queue.push($0, whenFull: .wait) }
            taken.withLock { $0 = results }
        }
        var popped: [Int] = []
        for _ in 0..<200 { if let item = queue.pop() { popped.append(item) } }
        pusher.join()
        #expect(taken.withLock { $0 } == Array(repeating: true, count: 200))
        #expect(popped == Array(0..<200))
    }

    @Test("close releases a pusher waiting for room; its item is refused")
    func closeReleasesAWaitingPusher() throws {
        let queue = StageQueue<Int>(capacity: 1)
        queue.push(0, whenFull: .drop)
        let taken = Mutex<Bool?>(nil)
        let pusher = try DedicatedThread { taken.withLock { $0 = queue.push(1, whenFull: .wait) } }
        queue.close()
        pusher.join()
        #expect(taken.withLock { $0 } == false)
        #expect(queue.pop() == 0)
        #expect(queue.pop() == nil)
    }

    #if DEBUG
    @Test("a push with a Lock or a ConditionLock held fails the debug check; one without passes")
    func aPushWithALockHeldIsCaught() {
        let queue = StageQueue<Int>(capacity: 8)
        let caught = CaughtFailures()
        queue.lockCheck.catchFailures { caught.add($0) }
        queue.push(0, whenFull: .drop)
        #expect(caught.all.isEmpty)
        let lock = Lock(0)
        lock.withLock { _ in _ = queue.push(1, whenFull: .drop) }
        let condition = ConditionLock()
        condition.withLock { _ = queue.push(2, whenFull: .drop) }
        #expect(caught.all == [
            "a push into a stage queue with 1 lock(s) held by the pushing thread",
            "a push into a stage queue with 1 lock(s) held by the pushing thread",
        ])
        // Each lock given back: the count is 0 again.
        #expect(HeldLocks.onThisThread == 0)
        queue.push(3, whenFull: .drop)
        #expect(caught.all.count == 2)
    }

    @Test("a call on a bound object from another thread fails the debug check; from its own it passes")
    func confinementIsChecked() throws {
        let confinement = ThreadConfinement("the test's stage")
        let caught = CaughtFailures()
        confinement.check.catchFailures { caught.add($0) }
        confinement.assertOnOwner("before binding")
        let owner = try DedicatedThread {
            confinement.bindToCurrentThread()
            confinement.assertOnOwner("on its own thread")
        }
        owner.join()
        confinement.assertOnOwner("a call")
        #expect(caught.all == ["a call ran off the test's stage's thread"])
    }
    #endif
}
