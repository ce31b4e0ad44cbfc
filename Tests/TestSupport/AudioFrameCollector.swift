import Media
import Synchronization

/// Keeps what a source delivered, with the instant each arrived, and wakes a test waiting for a count.
public final class AudioFrameCollector: Sendable {
    public struct Arrival: Sendable {
        public var frame: AudioFrame
        public var at: MonotonicTime
    }

    private let arrivals = Mutex<[Arrival]>([])
    private let stopped = Atomic<Bool>(false)
    private let deliveredAfterStop = Atomic<Int>(0)
    /// Frames that arrived after `markStopped` (a source whose stop did not wait for its thread).
    public var lateDeliveries: Int { deliveredAfterStop.load(ordering: .relaxed) }

    public init() {}

    public func deliver(_ frame: AudioFrame) {
        let now = MonotonicTime.now()
        if stopped.load(ordering: .relaxed) { deliveredAfterStop.add(1, ordering: .relaxed) }
        arrivals.withLock { $0.append(Arrival(frame: frame, at: now)) }
    }

    /// From now on a delivery is a failure (the source's stop returned).
    public func markStopped() { stopped.store(true, ordering: .relaxed) }

    public var all: [Arrival] { arrivals.withLock { $0 } }
    public var count: Int { arrivals.withLock { $0.count } }

    /// Waits (polling every 10 ms) until `count` frames arrived or `timeout` seconds passed.
    public func wait(for count: Int, timeout: Double) -> Bool {
        let deadline = MonotonicTime.now().adding(nanoseconds: UInt64(timeout * 1e9))
        while self.count < count {
            if MonotonicTime.now() > deadline { return false }
            SystemCall.sleep(nanoseconds: 10_000_000)
        }
        return true
    }

    /// Every delivered sample, in order.
    public var samples: [Int16] { all.flatMap(\.frame.samples) }
}
