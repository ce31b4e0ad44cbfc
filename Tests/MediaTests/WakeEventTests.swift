import Glibc
import Media
import Synchronization
import Testing
import TestSupport

/// The eventfd wait that paces the sources and wakes the device loops. Every wait that should end
/// at once is given a deadline 10 s away and must end well before it, so a loaded machine cannot
/// make these flake, while a lost wake-up would show as a 10 s wait.
@Suite struct WakeEventTests {
    static let far: UInt64 = 10_000_000_000
    static let wellBefore: Int64 = 5_000_000_000

    /// Level-triggered: a signal given before the wait begins ends it at once (the stop that comes
    /// while a source is busy encoding, before it sleeps to its next frame), and its fd then polls
    /// readable for a device loop.
    @Test func aSignalGivenBeforeTheWaitEndsItAtOnce() throws {
        let wake = try WakeEvent()
        wake.signal()
        var request = pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&request, 1, 0) == 1)
        let start = MonotonicTime.now()
        #expect(wake.wait(until: start.adding(nanoseconds: Self.far)))
        #expect(MonotonicTime.now().nanoseconds(since: start) < Self.wellBefore)
        // It stays signalled: a later wait ends too, and so does an endless one.
        #expect(wake.wait(milliseconds: 10_000))
        wake.wait()
    }

    @Test func aSignalFromAnotherThreadWakesASleeperAtOnce() throws {
        let wake = try WakeEvent()
        let sleeping = Atomic<Bool>(false)
        let outcome = SharedLock<(signalled: Bool, slept: Int64)?>(nil)
        let sleeper = try DedicatedThread {
            let start = MonotonicTime.now()
            sleeping.store(true, ordering: .releasing)
            let signalled = wake.wait(until: start.adding(nanoseconds: Self.far))
            outcome.withLock { $0 = (signalled, MonotonicTime.now().nanoseconds(since: start)) }
        }
        while !sleeping.load(ordering: .acquiring) { SystemCall.sleep(nanoseconds: 1_000_000) }
        SystemCall.sleep(nanoseconds: 20_000_000)  // most likely inside ppoll by now; either way it must end
        wake.signal()
        sleeper.join()
        let result = try #require(outcome.withLock { $0 })
        #expect(result.signalled)
        #expect(result.slept < Self.wellBefore)
    }

    /// Unsignalled, a wait lasts to its deadline (a normal pacing tick) and says it timed out.
    @Test func anUnsignalledWaitLastsToItsDeadlineAndSaysSo() throws {
        let wake = try WakeEvent()
        let deadline = MonotonicTime.now().adding(nanoseconds: 30_000_000)
        #expect(!wake.wait(until: deadline))
        #expect(MonotonicTime.now() >= deadline)
        #expect(!wake.wait(milliseconds: 0))
        #expect(!wake.isSignalled)
    }

    /// A deadline already past with a signal waiting: the signal wins, so a loop that fell behind
    /// still sees its stop instead of one more frame.
    @Test func aSignalWinsOverADeadlineAlreadyPast() throws {
        let wake = try WakeEvent()
        #expect(!wake.wait(until: MonotonicTime(nanoseconds: 0)))
        wake.signal()
        #expect(wake.wait(until: MonotonicTime(nanoseconds: 0)))
    }

    /// Many signals count as one: a single reset clears them all, and the next wait is a tick again.
    @Test func repeatedSignalsCoalesceAndOneResetClearsThem() throws {
        let wake = try WakeEvent()
        for _ in 0..<5 { wake.signal() }
        #expect(wake.isSignalled)
        wake.reset()
        #expect(!wake.isSignalled)
        #expect(!wake.wait(until: MonotonicTime.now().adding(nanoseconds: 10_000_000)))
        wake.reset()  // resetting an unsignalled event is harmless
        #expect(!wake.isSignalled)
    }

    /// Each event closes its fd when it goes: more events made and dropped one after another than
    /// the process may hold open at once all succeed (a leak would end in EMFILE).
    @Test func aDroppedEventClosesItsDescriptor() throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let count = Int(min(limit.rlim_cur, 1 << 20)) + 16
        for _ in 0..<count {
            let wake = try WakeEvent()
            wake.signal()
        }
    }
}
