import Synchronization

/// The dedicated thread of a source that paces itself (test pattern, y4m file, camera replay, the
/// audio sources), and the flag that tells it to keep going: started once, stopped and joined from
/// any thread. Each module names the errors a failed start throws, in its own error type.
public final class SourceThread<Failure: Error>: Sendable {
    private let running = Atomic<Bool>(false)
    private let thread = Lock<DedicatedThread?>(nil)
    /// Raised by `stop` so a loop waiting for its next deadline ends at once.
    private let wake = WakeSignal()
    private let alreadyStarted: Failure
    private let threadStartFailed: @Sendable (Int32) -> Failure

    /// `alreadyStarted`: thrown by a second `start`; `threadStartFailed`: made from the errno of a
    /// thread the system would not create.
    public init(alreadyStarted: Failure, threadStartFailed: @escaping @Sendable (Int32) -> Failure) {
        self.alreadyStarted = alreadyStarted
        self.threadStartFailed = threadStartFailed
    }

    /// Read by the loop between frames; false once `stop` was called.
    public var isRunning: Bool { running.load(ordering: .acquiring) }

    public func start(_ body: @escaping @Sendable () -> Void) throws(Failure) {
        guard running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            throw alreadyStarted
        }
        wake.reset()
        do {
            let started = try DedicatedThread(body)
            thread.withLock { $0 = started }
        } catch {
            running.store(false, ordering: .releasing)
            throw threadStartFailed(error.errno)
        }
    }

    /// Asks the loop to end and waits for it; the loop delivers nothing after this returns.
    public func stop() {
        running.store(false, ordering: .releasing)
        wake.raise()
        let started = thread.withLock { current -> DedicatedThread? in
            defer { current = nil }
            return current
        }
        started?.join()
    }

    /// Waits until `deadline` on CLOCK_MONOTONIC, or less if `stop` is called meanwhile.
    /// Returns true when the deadline came and the loop should go on, false once stopped.
    /// Absolute deadlines do not drift with the time spent rendering or encoding between frames.
    public func wait(until deadline: MonotonicTime) -> Bool {
        !wake.wait(until: deadline) && isRunning
    }
}
