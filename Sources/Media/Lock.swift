import Synchronization

/// Camcast's one lock around a value: `Synchronization.Mutex` under a name of its own, with the same
/// `withLock`, so that a counting build can count every take (`LockTakes`).
///
/// Why a type of our own rather than `Mutex` itself and a perf trace: `Mutex.withLock` is
/// `@_transparent`, and its uncontended path is a compare-and-swap inlined into the caller (the one
/// call it makes, to the runtime's thread-id helper, is made by unlock and by others too), so no
/// probe on a function sees an uncontended take; only a counter compiled into the take finds them
/// all. In a normal build the counter is compiled out and this is `Mutex` exactly.
///
/// The value is read and written only inside `withLock`. Never hold a lock across a call into
/// another stage or across I/O; the waits a queue needs are `ConditionLock`'s (counted too).
public struct Lock<Value: ~Copyable>: ~Copyable, Sendable {
    @usableFromInline let mutex: Mutex<Value>
    #if CAMCAST_TSAN_LOCK_EDGES
    @usableFromInline let edges = Atomic<Int>(0)
    #endif

    @inlinable
    public init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    @inlinable @inline(__always)
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        LockTakes.record()
        // Debug builds: this thread holds one more (a stage queue's push checks it holds none).
        HeldLocks.took()
        defer { HeldLocks.gaveBack() }
        #if CAMCAST_TSAN_LOCK_EDGES
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            edges.wrappingAdd(1, ordering: .acquiring)
            defer { edges.wrappingAdd(1, ordering: .releasing) }
            return try body(&value)
        }
        #else
        return try mutex.withLock(body)
        #endif
    }
}

// The ThreadSanitizer build's edges (Package.swift defines CAMCAST_TSAN_LOCK_EDGES with
// CAMCAST_TSAN_BUILD=1). TSan sees a `Mutex` handed over only on its uncontended path, the
// compare-and-swap inlined into our instrumented code. A contended take waits in the kernel
// (FUTEX_LOCK_PI, from the uninstrumented standard library) and the kernel gives it the lock at the
// owner's FUTEX_UNLOCK_PI, with no atomic operation TSan sees: it then reports the next critical
// section's accesses as a race with the last one (CI: `AudioStage.deliver` against `start`, both
// under `state`'s lock, on a loaded machine). So each critical section begins with an acquiring
// and ends with a releasing read-modify-write of one counter per lock: the next holder's acquire
// reads the last holder's release, which is the order the mutex gives anyway, now visible to TSan.
// No other edge is added, so a real race between a locked and an unlocked access is still found.

/// The counting build's one process-wide count of lock takes: every `Lock.withLock`, every
/// `ConditionLock.lock()` and every wake-up from a `ConditionLock` wait (it takes the mutex again).
/// Built with `CAMCAST_LOCK_COUNTING=1` (Package.swift turns it into `CAMCAST_COUNT_LOCK_TAKES`);
/// the stop summary prints it with the encoded frames (scripts/bench-locks). In a normal build
/// `record` is empty and `total` is nil.
public enum LockTakes {
    #if CAMCAST_COUNT_LOCK_TAKES
    @usableFromInline static let counter = Atomic<Int>(0)
    #endif

    @inlinable @inline(__always)
    package static func record() {
        #if CAMCAST_COUNT_LOCK_TAKES
        counter.wrappingAdd(1, ordering: .relaxed)
        #endif
    }

    /// Takes since the process started; nil when this build does not count.
    public static var total: Int? {
        #if CAMCAST_COUNT_LOCK_TAKES
        counter.load(ordering: .relaxed)
        #else
        nil
        #endif
    }
}
