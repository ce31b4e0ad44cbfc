#if canImport(Glibc)
import Glibc
#endif

/// A plain pthread that runs one closure, for work that blocks (sleeping to a frame deadline,
/// poll/DQBUF on a device) and must not occupy a Swift concurrency thread.
public final class DedicatedThread: Sendable {
    private let handle: pthread_t

    /// Boxes the closure so it can cross the C start-routine boundary through `Unmanaged`.
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// `name`: what the kernel shows for the thread (/proc/PID/task/TID/comm, `ps -L`, `top -H`),
    /// cut to its 15 bytes; nil keeps the creator's name (tests' threads). The pipeline's stages name theirs
    /// (`capture`, `encoder`, …), and the printed graph says which thread runs each stage.
    public init(name: String? = nil, _ body: @escaping @Sendable () -> Void) throws(ThreadStartError) {
        let context = Unmanaged.passRetained(Body {
            if let name { Self.nameCurrentThread(name) }
            body()
        }).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw ThreadStartError(errno: result)
        }
        handle = thread
    }

    /// The kernel takes at most 15 bytes (and refuses more): whole characters that fit. Written
    /// to /proc/thread-self/comm (proc(5)): what pthread_setname_np does for the calling thread,
    /// which Swift's Glibc module does not export. A name that cannot be set is no failure.
    private static func nameCurrentThread(_ name: String) {
        var fitting = ""
        for character in name {
            guard fitting.utf8.count + character.utf8.count <= 15 else { break }
            fitting.append(character)
        }
        let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard file >= 0 else { return }
        defer { close(file) }
        _ = fitting.withCString { write(file, $0, strlen($0)) }
    }

    /// Waits for the closure to return. Call exactly once, or `detach` instead.
    public func join() {
        pthread_join(handle, nil)
    }

    /// Lets the thread end on its own without anyone waiting for it (e.g. one blocked in a C
    /// call that cannot be interrupted). Call instead of `join`, exactly once.
    public func detach() {
        pthread_detach(handle)
    }
}

/// pthread_create failed (EAGAIN: out of threads or memory).
public struct ThreadStartError: Error, Equatable, CustomStringConvertible {
    public var errno: Int32
    public var description: String { "could not start a thread: \(SystemCallError.message(errno)) (errno \(errno))" }
}
