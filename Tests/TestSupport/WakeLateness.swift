import Foundation
import Media
import Synchronization

/// How late this machine wakes a sleeping thread, measured while a test runs: a thread that sleeps
/// `period` again and again and keeps the longest overshoot. A bound on how long something waited
/// for the scheduler is then derived from the same run (issue 38) instead of a number that holds
/// on one machine: a quiet one wakes a thread within a millisecond, an emulated guest beside other
/// work hundreds later.
public final class WakeLateness: Sendable {
    private let period: UInt64
    private let running = Atomic<Bool>(true)
    private let longest = Atomic<UInt64>(0)
    private let samples = Atomic<Int>(0)

    /// Starts measuring at once, waking every `periodNanoseconds`, until `stop`.
    public init(periodNanoseconds: UInt64 = 5_000_000) {
        period = periodNanoseconds
        let thread = Thread { [self] in
            while running.load(ordering: .relaxed) {
                let asleep = MonotonicTime.now()
                var time = timespec(tv_sec: Int(period / 1_000_000_000), tv_nsec: Int(period % 1_000_000_000))
                nanosleep(&time, nil)
                let late = MonotonicTime.now().nanoseconds(since: asleep) - Int64(period)
                longest.store(max(longest.load(ordering: .relaxed), UInt64(max(0, late))), ordering: .relaxed)
                samples.add(1, ordering: .relaxed)
            }
        }
        thread.start()
    }

    /// The longest overshoot so far (ns) and how many sleeps it is the longest of.
    public var measured: (longestNanoseconds: UInt64, sleeps: Int) {
        (longest.load(ordering: .relaxed), samples.load(ordering: .relaxed))
    }

    /// Stops the measuring thread (it ends after its current sleep).
    public func stop() { running.store(false, ordering: .relaxed) }
}
