import Synchronization

/// The dedicated thread of a source that paces itself (test pattern, y4m file, camera replay, the
/// audio sources), and the flag that tells it to keep going: started once, stopped and joined from
/// any thread. Each module names the errors a failed start throws, in its own error type.
public final class SourceThread<Failure: Error>: Sendable {
    private let running = Atomic<Bool>(false)
    private let thread = Lock<DedicatedThread?>(nil)
    /// Signalled by `stop` so a loop waiting for its next deadline ends at once. Made by the first
    /// `start` (an eventfd can fail, which a start reports) and kept for later ones; read without a
    /// lock, so a pacing wait takes none (see `WakeEvent` for why pacing does not use `ConditionLock`).
    private let wake = AtomicLazyReference<WakeEvent>()
    private let alreadyStarted: Failure
    private let threadStartFailed: @Sendable (Int32) -> Failure

    /// The kernel name of the thread (`DedicatedThread(name:)`): `capture` or `audio`.
    private let name: String

    /// `name`: the thread's kernel name; `alreadyStarted`: thrown by a second `start`;
    /// `threadStartFailed`: made from the errno of a thread the system would not create.
    public init(name: String, alreadyStarted: Failure, threadStartFailed: @escaping @Sendable (Int32) -> Failure) {
        self.name = name
        self.alreadyStarted = alreadyStarted
        self.threadStartFailed = threadStartFailed
    }

    /// Read by the loop between frames; false once `stop` was called.
    public var isRunning: Bool { running.load(ordering: .acquiring) }

    public func start(_ body: @escaping @Sendable () -> Void) throws(Failure) {
        guard running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            throw alreadyStarted
        }
        do {
            // Out of file descriptors, the thread could not wait for its stop: it does not start.
            try wakeEvent().reset()
        } catch {
            running.store(false, ordering: .releasing)
            throw threadStartFailed(error.errno)
        }
        do {
            let started = try DedicatedThread(name: name, body)
            thread.withLock { $0 = started }
        } catch {
            running.store(false, ordering: .releasing)
            throw threadStartFailed(error.errno)
        }
    }

    private func wakeEvent() throws(SystemCallError) -> WakeEvent {
        if let made = wake.load() { return made }
        return wake.storeIfNil(try WakeEvent())
    }

    /// Asks the loop to end and waits for it; the loop delivers nothing after this returns.
    public func stop() {
        running.store(false, ordering: .releasing)
        wake.load()?.signal()
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
        guard let event = wake.load() else { return false }
        return !event.wait(until: deadline) && isRunning
    }
}

/// The kernel names of the sources' threads (the printed graph says which stage runs on which).
public enum SourceThreadName {
    /// The video source's: it captures, converts and draws the overlay.
    public static let capture = "capture"
    /// The sound's: it captures and encodes AAC.
    public static let audio = "audio"
}
