#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Debug builds: the one thread an object's calls belong to, checked on every call, as swift-nio's
/// `preconditionInEventLoop` does. The owner binds it from its own thread (an encoder stage binds
/// its session before the first picture); until then any thread may call. A call from another
/// thread fails the check (`DebugCheck`). Release builds record and check nothing.
public final class ThreadConfinement: Sendable {
    /// The bound thread's pthread_t (an integer on Linux); 0 while unbound.
    private let owner = Atomic<UInt>(0)
    public let check = DebugCheck()
    private let name: String

    /// `name` says whose thread this is, for the failure's message.
    public init(_ name: String) {
        self.name = name
    }

    /// The calling thread owns every later call (until bound again).
    public func bindToCurrentThread() {
        #if DEBUG
        owner.store(UInt(pthread_self()), ordering: .releasing)
        #endif
    }

    /// For an object whose owner is whoever calls it first (a source thread's delivery cache, made
    /// before that thread exists): the first call binds its thread, every later one is asserted as
    /// `assertOnOwner` asserts. One load on the owner's path, a compare-exchange on the first call.
    @inline(__always)
    public func assertOnFirstCaller(_ call: @autoclosure () -> String) {
        #if DEBUG
        let me = UInt(pthread_self())
        var bound = owner.load(ordering: .acquiring)
        if bound == 0 {
            bound = owner.compareExchange(expected: 0, desired: me, ordering: .acquiringAndReleasing).original
            if bound == 0 { return }
        }
        guard bound != me else { return }
        check.fail("\(call()) ran off \(name)'s thread")
        #endif
    }

    /// Fails the check when bound and called from another thread.
    @inline(__always)
    public func assertOnOwner(_ call: @autoclosure () -> String) {
        #if DEBUG
        let bound = owner.load(ordering: .acquiring)
        guard bound != 0, bound != UInt(pthread_self()) else { return }
        check.fail("\(call()) ran off \(name)'s thread")
        #endif
    }
}
