import Media
import Synchronization

/// The dedicated thread of an audio source and the flag that tells it to keep going: started
/// once, stopped and joined from any thread.
final class AudioSourceThread: Sendable {
    private let running = Atomic<Bool>(false)
    private let thread = Mutex<DedicatedThread?>(nil)
    /// Raised by `stop` so a loop waiting for its next deadline ends at once.
    private let wake = WakeSignal()

    var isRunning: Bool { running.load(ordering: .acquiring) }

    func start(_ body: @escaping @Sendable () -> Void) throws(AudioCaptureError) {
        guard running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            throw .alreadyStarted
        }
        wake.reset()
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
        wake.raise()
        let started = thread.withLock { current -> DedicatedThread? in
            defer { current = nil }
            return current
        }
        started?.join()
    }

    /// Waits until `deadline` on CLOCK_MONOTONIC, or less if `stop` is called meanwhile.
    /// Returns true when the deadline came and the loop should go on, false once stopped.
    func wait(until deadline: MonotonicTime) -> Bool {
        !wake.wait(until: deadline) && isRunning
    }
}
