#if canImport(Glibc)
import Glibc
#endif

/// Debug builds: how many of Media's locks (`Lock`, `ConditionLock`) the calling thread holds, so
/// that a hand-off between stages can check it holds none (issue 39): a thread that pushes into
/// the next stage's queue with a lock held makes whoever waits for that lock wait for the next
/// stage too. A per-thread count in a pthread key, kept by every take; release builds count
/// nothing and the calls compile to nothing.
public enum HeldLocks {
    #if DEBUG
    @usableFromInline static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    @usableFromInline static func adjust(by delta: Int) {
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: Int(bitPattern: pthread_getspecific(key)) + delta))
    }
    #endif

    /// The calling thread took one.
    @inlinable @inline(__always)
    package static func took() {
        #if DEBUG
        adjust(by: 1)
        #endif
    }

    /// The calling thread gave one back.
    @inlinable @inline(__always)
    package static func gaveBack() {
        #if DEBUG
        adjust(by: -1)
        #endif
    }

    /// Locks the calling thread holds now; nil in a release build, which does not count.
    public static var onThisThread: Int? {
        #if DEBUG
        Int(bitPattern: pthread_getspecific(key))
        #else
        nil
        #endif
    }
}
