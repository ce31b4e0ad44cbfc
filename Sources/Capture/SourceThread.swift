#if canImport(Glibc)
import Glibc
#endif
import Media
import Synchronization

/// The dedicated thread of a source that paces itself (test pattern, y4m file), and the flag that
/// tells it to keep going: started once, stopped and joined from any thread.
final class SourceThread: Sendable {
    private let running = Atomic<Bool>(false)
    private let thread = Mutex<DedicatedThread?>(nil)

    /// Read by the loop between frames; false once `stop` was called.
    var isRunning: Bool { running.load(ordering: .acquiring) }

    func start(_ body: @escaping @Sendable () -> Void) throws(CaptureError) {
        guard running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            throw .alreadyStarted
        }
        do {
            let started = try DedicatedThread(body)
            thread.withLock { $0 = started }
        } catch {
            running.store(false, ordering: .releasing)
            throw .threadStartFailed(errno: error.errno)
        }
    }

    /// Asks the loop to end and waits for it; the loop delivers nothing after this returns.
    func stop() {
        running.store(false, ordering: .releasing)
        let started = thread.withLock { current -> DedicatedThread? in
            defer { current = nil }
            return current
        }
        started?.join()
    }

    /// Sleeps until `deadline` on CLOCK_MONOTONIC. Absolute deadlines do not drift with the time
    /// spent rendering or encoding between frames; EINTR is retried.
    static func sleep(until deadline: MonotonicTime) {
        var ts = timespec(
            tv_sec: Int(deadline.nanoseconds / 1_000_000_000), tv_nsec: Int(deadline.nanoseconds % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}
