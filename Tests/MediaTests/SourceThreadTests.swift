import Media
import Synchronization
import Testing
import TestSupport

/// The pacing thread every source runs on: its waits are ticks until `stop`, which ends a wait at
/// once whether the thread was already asleep or not yet. Deadlines that should not be reached are
/// 10 s away and the checks ask for well under half that, so load cannot make them flake.
@Suite struct SourceThreadTests {
    enum Failure: Error { case alreadyStarted, threadStartFailed(Int32) }

    static let far: UInt64 = 10_000_000_000
    static let wellBefore: Int64 = 5_000_000_000

    static func makeThread() -> SourceThread<Failure> {
        SourceThread(name: "test source", alreadyStarted: .alreadyStarted, threadStartFailed: Failure.threadStartFailed)
    }

    /// Unstopped, each wait lasts to its deadline and says go on.
    @Test func waitsAreTicksUntilStopped() throws {
        let thread = Self.makeThread()
        let ticks = SharedLock<[Bool]>([])
        let start = MonotonicTime.now()
        try thread.start {
            for tick in 1...3 {
                let goOn = thread.wait(until: start.adding(nanoseconds: UInt64(tick) * 10_000_000))
                ticks.withLock { $0.append(goOn) }
            }
        }
        while ticks.withLock({ $0.count }) < 3 { SystemCall.sleep(nanoseconds: 1_000_000) }
        thread.stop()
        #expect(ticks.withLock { $0 } == [true, true, true])
        #expect(MonotonicTime.now().nanoseconds(since: start) >= 30_000_000)
    }

    @Test func aStopWakesAThreadAsleepToAFarDeadline() throws {
        let thread = Self.makeThread()
        let asleep = Atomic<Bool>(false)
        let outcome = SharedLock<Bool?>(nil)
        try thread.start {
            asleep.store(true, ordering: .releasing)
            let goOn = thread.wait(until: MonotonicTime.now().adding(nanoseconds: Self.far))
            outcome.withLock { $0 = goOn }
        }
        while !asleep.load(ordering: .acquiring) { SystemCall.sleep(nanoseconds: 1_000_000) }
        let stopping = MonotonicTime.now()
        thread.stop()  // joins: returns once the wait has ended
        #expect(MonotonicTime.now().nanoseconds(since: stopping) < Self.wellBefore)
        #expect(outcome.withLock { $0 } == false)
    }

    /// The lost wake-up case: the stop comes while the loop is busy (encoding), before it goes to
    /// sleep; its next wait must still end at once, not at the deadline.
    @Test func aStopGivenBeforeTheWaitBeginsStillEndsItAtOnce() throws {
        let thread = Self.makeThread()
        let outcome = SharedLock<(goOn: Bool, slept: Int64)?>(nil)
        try thread.start {
            while thread.isRunning { SystemCall.sleep(nanoseconds: 1_000_000) }  // busy until the stop
            let start = MonotonicTime.now()
            let goOn = thread.wait(until: start.adding(nanoseconds: Self.far))
            outcome.withLock { $0 = (goOn, MonotonicTime.now().nanoseconds(since: start)) }
        }
        thread.stop()
        let result = try #require(outcome.withLock { $0 })
        #expect(!result.goOn)
        #expect(result.slept < Self.wellBefore)
    }

    /// A stopped thread started again (a source restarted by a reload) paces again: the old stop's
    /// signal is cleared, so its first wait is a tick, not an immediate end.
    @Test func aRestartedThreadPacesAgain() throws {
        let thread = Self.makeThread()
        try thread.start {}
        thread.stop()
        let outcome = SharedLock<Bool?>(nil)
        try thread.start {
            let goOn = thread.wait(until: MonotonicTime.now().adding(nanoseconds: 20_000_000))
            outcome.withLock { $0 = goOn }
        }
        while outcome.withLock({ $0 }) == nil { SystemCall.sleep(nanoseconds: 1_000_000) }
        thread.stop()
        #expect(outcome.withLock { $0 } == true)
        #expect(throws: Failure.self) {
            try thread.start {}
            try thread.start {}  // the second start while running is refused
        }
        thread.stop()
    }
}
