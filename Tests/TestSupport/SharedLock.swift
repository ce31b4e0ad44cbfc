import Media

/// A value a test shares between its own thread and a closure that runs on another, behind a lock.
///
/// Not a bare lock in a local `let`: captured by an escaping closure, a noncopyable `Lock` or
/// `Mutex` is put in a box, and Swift 6.3 reaches a noncopyable capture through a dynamically
/// enforced *modify* access inside the closure, around the whole `withLock` call. ThreadSanitizer
/// reports that access against the test thread's own as a "Swift access race" although the lock
/// orders what is inside (it failed a CI run: `SourceThreadTests.waitsAreTicksUntilStopped`,
/// polling while the source thread appended). Kept in a class, the lock is reached through the
/// object's `let` property, with no access to race on; the sources do the same
/// (`V4L2CaptureSource.StartOutcome`). Media's `Lock`, not `Mutex`, so that the ThreadSanitizer
/// build sees its contended hand-overs too (Lock.swift).
public final class SharedLock<Value: Sendable>: Sendable {
    private let lock: Lock<Value>

    public init(_ value: Value) { lock = Lock(value) }

    public func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { value in try body(&value) }
    }
}
