import Media
import Synchronization

/// Keeps what a source delivered, with the instant each arrived, and wakes a test waiting for a count.
final class FrameCollector: Sendable {
    struct Arrival: Sendable {
        var frame: AudioFrame
        var at: MonotonicTime
    }

    private let arrivals = Mutex<[Arrival]>([])
    private let stopped = Atomic<Bool>(false)

    func deliver(_ frame: AudioFrame) {
        let now = MonotonicTime.now()
        if stopped.load(ordering: .relaxed) { Issue.recordDeliveryAfterStop() }
        arrivals.withLock { $0.append(Arrival(frame: frame, at: now)) }
    }

    /// From now on a delivery is a failure (the source's stop returned).
    func markStopped() { stopped.store(true, ordering: .relaxed) }

    var all: [Arrival] { arrivals.withLock { $0 } }
    var count: Int { arrivals.withLock { $0.count } }

    /// Waits (polling every 10 ms) until `count` frames arrived or `timeout` seconds passed.
    func wait(for count: Int, timeout: Double) -> Bool {
        let deadline = MonotonicTime.now().adding(nanoseconds: UInt64(timeout * 1e9))
        while self.count < count {
            if MonotonicTime.now() > deadline { return false }
            _ = WakeSignal().wait(until: MonotonicTime.now().adding(nanoseconds: 10_000_000))
        }
        return true
    }

    /// Every delivered sample, in order.
    var samples: [Int16] { all.flatMap(\.frame.samples) }
}

import Testing

extension Issue {
    static func recordDeliveryAfterStop() { Issue.record("a frame was delivered after stop() returned") }
}
