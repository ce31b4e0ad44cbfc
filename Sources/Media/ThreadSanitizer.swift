#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells ThreadSanitizer about a lock handover it cannot see.
///
/// On Linux, `Synchronization.Mutex` waits in a priority-inheritance futex: when the owner unlocks,
/// the kernel makes the waiter the owner, and no atomic instruction in the waiter orders it after the
/// previous owner. TSan learns happens-before only from atomics and the pthread calls it intercepts,
/// so it reports whatever such a mutex guards as raced once two threads contend for it (measured on
/// the session's concurrency test: "data race" on its keyframe flag, then written only inside
/// `withLock`). The Swift runtime annotates its own futex lock the same way.
///
/// Every `Lock` (a Mutex underneath) two threads contend for needs it: the encoder session's. (The packet interleaver
/// waits on a `ConditionLock`, whose pthread mutex TSan sees.)
///
/// Under TSan its runtime is linked into the binary and these calls mark the handover; in a normal
/// build `dlsym` finds nothing and they do nothing.
package enum ThreadSanitizer {
    private typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void

    private static let acquireFunction: Annotation? = lookup("__tsan_acquire")
    private static let releaseFunction: Annotation? = lookup("__tsan_release")

    /// Call right after taking the lock identified by `address`.
    package static func acquire(_ address: UnsafeMutableRawPointer) {
        acquireFunction?(address)
    }

    /// Call right before giving the lock identified by `address` up.
    package static func release(_ address: UnsafeMutableRawPointer) {
        releaseFunction?(address)
    }

    private static func lookup(_ name: String) -> Annotation? {
        // A nil handle is RTLD_DEFAULT: search the executable and everything it loaded.
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: Annotation.self)
    }
}
