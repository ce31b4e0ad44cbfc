#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A mutex with one condition variable whose timed waits run on CLOCK_MONOTONIC: the one way a
/// Camcast thread waits for state another thread changes (a queue for its next packet, a hand-off
/// for its value). Deadlines are absolute on the clock frames are stamped with, so they neither
/// drift nor jump with the wall clock.
///
/// A wait that guards no state — a source pacing itself to its next deadline, a watchdog's sleep
/// between samples, a device loop's poll — waits on a `WakeEvent` instead: one kernel wait and no
/// mutex, where this takes its mutex for the wait and again on each wake-up.
///
/// The state it guards is the owner's, read and written only between `lock()` and `unlock()`
/// (or inside `withLock`). Never hold it across a call into another stage or across I/O. Debug
/// builds know which thread holds it, so a helper that touches the state outside a `withLock` of
/// its own can check its caller took the lock (`assertHeld`).
public final class ConditionLock: @unchecked Sendable {
    // @unchecked: the mutex and condition live at fixed heap addresses for the object's life and
    // are only used through pthread calls, which are thread-safe; `holder` is an atomic.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    #if DEBUG
    /// The holding thread's pthread_t; 0 while nobody holds it (or its holder waits). Written only
    /// by the holder, so a thread reading its own id here holds the lock (relaxed suffices: it
    /// wrote that id itself, and 0 before it gave the lock back).
    private let holder = Atomic<UInt>(0)
    #endif
    /// Fails when `assertHeld` finds the lock not held by the calling thread (a test may catch it).
    public let heldCheck = DebugCheck()

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

    /// A take, for the counting build (`LockTakes`); so is a wait's wake-up, which takes the mutex
    /// again.
    public func lock() {
        LockTakes.record()
        pthread_mutex_lock(mutex)
        HeldLocks.took()
        heldByThisThread()
    }

    public func unlock() {
        heldByNobody()
        HeldLocks.gaveBack()
        pthread_mutex_unlock(mutex)
    }

    /// Debug builds: fails the check unless the calling thread holds the lock now. `state` names
    /// what was about to be touched, for the failure's message.
    @inline(__always)
    public func assertHeld(_ state: @autoclosure () -> String) {
        #if DEBUG
        guard holder.load(ordering: .relaxed) != UInt(pthread_self()) else { return }
        heldCheck.fail("\(state()) touched without its lock held")
        #endif
    }

    @inline(__always)
    private func heldByThisThread() {
        #if DEBUG
        holder.store(UInt(pthread_self()), ordering: .relaxed)
        #endif
    }

    @inline(__always)
    private func heldByNobody() {
        #if DEBUG
        holder.store(0, ordering: .relaxed)
        #endif
    }

    public func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// With the lock held: releases it until `signal`/`broadcast` (or a spurious wake-up: callers
    /// wait in a loop over their own condition), then holds it again.
    public func wait() {
        heldByNobody()
        pthread_cond_wait(condition, mutex)
        heldByThisThread()
        LockTakes.record()
    }

    /// With the lock held: as `wait()`, but no later than `deadline`. False when the deadline came.
    @discardableResult
    public func wait(until deadline: MonotonicTime) -> Bool {
        var time = deadline.posixTimespec
        defer { LockTakes.record() }
        heldByNobody()
        defer { heldByThisThread() }
        return pthread_cond_timedwait(condition, mutex, &time) != ETIMEDOUT
    }

    /// Wakes one waiter. Either with the lock held or just after releasing it.
    public func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiter.
    public func broadcast() { pthread_cond_broadcast(condition) }
}
