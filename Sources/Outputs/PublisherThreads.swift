import Media
import Synchronization

/// The threads of a network output (its publisher, and RTMP's watchdog beside it) and the event
/// that says the publisher ended, for both RTMPOutput and SRTOutput: started by `open`, ended by
/// `finish`, which waits a bounded time and then joins them, or leaves a thread stuck inside the C
/// library to end by itself.
final class PublisherThreads: Sendable {
    private let threads = Lock<[DedicatedThread]>([])
    /// Signalled once, when the publisher's body returns (after its last close); it stays
    /// signalled, so a second `finish` sees it too. Made by `start` (an eventfd can fail).
    private let ended = AtomicLazyReference<WakeEvent>()

    /// Starts `publish` on a thread of its own (kernel name `name`), then each of `companions`
    /// (named `companionName`) with the event that ends their waits when the publisher is gone.
    func start(
        name: String, publish: @escaping @Sendable () -> Void, companionName: String = "", companions: [@Sendable (WakeEvent) -> Void] = []
    ) throws {
        let ended = self.ended.storeIfNil(try WakeEvent())
        let publisher = try DedicatedThread(name: name) {
            publish()
            ended.signal()
        }
        threads.withLock { $0.append(publisher) }
        for companion in companions {
            let thread = try DedicatedThread(name: companionName) { companion(ended) }
            threads.withLock { $0.append(thread) }
        }
    }

    /// Waits up to `seconds` for the publisher to end, then joins every thread, or detaches them
    /// if it did not end. True if it ended (or never started).
    func end(waitingUpTo seconds: Double) -> Bool {
        let done = ended.load()?.wait(until: MonotonicTime.now().adding(nanoseconds: UInt64(max(0, seconds) * 1e9))) ?? true
        let taken = threads.withLock { current -> [DedicatedThread] in
            defer { current = [] }
            return current
        }
        for thread in taken {
            if done { thread.join() } else { thread.detach() }
        }
        return done
    }
}
