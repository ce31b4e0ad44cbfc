import Glibc
import Logging
import Media
import Synchronization
import Telemetry
import Testing
import TestSupport
@testable import Outputs

/// A scheduled output sleeps between its schedule's transitions (issue 39 item 4, issue 44's
/// "the rest's own CPU"): it looks at its schedule at its open, at the next transition and at a
/// setting of the wall clock, not four times a second.
@Suite(.serialized) struct ScheduledOutputLookTests {
    final class IdleOutput: StreamOutput {
        let name = "idle"
        let threadName = "idle"
        func open() throws(OutputFailure) {}
        func write(_ packet: MediaPacket) {}
        func finish(endTime: Int64, drainSeconds: Double) {}
        var statistics: OutputStatistics { OutputStatistics() }
    }

    static func output(_ look: @escaping @Sendable () -> ScheduledOutput.Look) -> ScheduledOutput {
        ScheduledOutput(
            name: "scheduled", meter: OutputMeter(name: "rtmp-1", kind: "rtmp", target: "test"),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }), window: look, make: { IdleOutput() })
    }

    /// Closed until a wall-clock second 2 s away, open from it: two looks in all — the open's
    /// and the transition's — where looking every 250 ms took about ten; and the second look
    /// not before the transition. Speed-independent: a slow machine looks later, not more often.
    @Test func itLooksAtItsOpenAndAtTheTransitionOnly() throws {
        try WallClockSetting.exclusively {
            let opensAt = WallClockAlarm.secondsNow + 2
            let output = Self.output {
                let now = WallClockAlarm.secondsNow
                return now < opensAt
                    ? ScheduledOutput.Look(window: .closed(next: "soon", inSeconds: opensAt - now), lookedAt: now, changesAt: opensAt)
                    : ScheduledOutput.Look(window: .open(closes: nil), lookedAt: now, changesAt: nil)
            }
            try output.open()
            defer { output.finish(endTime: 0, drainSeconds: 0) }
            let deadline = MonotonicTime.now().adding(nanoseconds: 30_000_000_000)
            while output.scheduleRest != nil, MonotonicTime.now() < deadline { usleep(1_000) }
            #expect(output.scheduleRest == nil, "the window never opened")
            #expect(WallClockAlarm.secondsNow >= opensAt, "opened before its window")
            #expect(output.looks.load(ordering: .relaxed) == 2, "\(output.looks.load(ordering: .relaxed)) looks for one transition")
        }
    }

    /// A clock not yet set (no transition known): the output looks again when the clock is set,
    /// at once, not at a period. Needs CAP_SYS_TIME (a step of nothing, as in WallClockAlarmTests).
    @Test(.enabled(if: WallClockSetting.isPermitted, "setting the wall clock needs CAP_SYS_TIME"))
    func aSettingOfTheWallClockMakesItLookAgain() throws {
        try WallClockSetting.exclusively {
            let output = Self.output {
                ScheduledOutput.Look(window: .closed(next: "the clock is set"), lookedAt: WallClockAlarm.secondsNow, changesAt: nil)
            }
            try output.open()
            defer { output.finish(endTime: 0, drainSeconds: 0) }
            // Nothing but a setting of the clock is due: one look, however long this waits (a look
            // period would have made two by the time the clock is set).
            let quiet = MonotonicTime.now().adding(nanoseconds: 2 * ScheduledOutput.lookIntervalNanoseconds)
            while MonotonicTime.now() < quiet { usleep(1_000) }
            #expect(output.looks.load(ordering: .relaxed) == 1)
            let deadline = MonotonicTime.now().adding(nanoseconds: 30_000_000_000)
            while output.looks.load(ordering: .relaxed) < 2, MonotonicTime.now() < deadline {
                #expect(WallClockSetting.byNothing())
                usleep(5_000)
            }
            #expect(output.looks.load(ordering: .relaxed) >= 2, "no look after the clock was set")
        }
    }

    /// The stop ends the sleep at once: `finish` returns with the thread ended (it would wait
    /// out its one-second join otherwise and log it).
    @Test func finishEndsTheSleepAtOnce() throws {
        let output = Self.output {
            let now = WallClockAlarm.secondsNow
            return ScheduledOutput.Look(window: .closed(next: "in an hour", inSeconds: 3600), lookedAt: now, changesAt: now + 3600)
        }
        try output.open()
        output.finish(endTime: 0, drainSeconds: 0)
        #expect(output.threads.end(waitingUpTo: 0), "the watch thread had not ended when finish gave up on it")
    }

    /// An output that would not start at its window's opening (a full disk, out of threads) is
    /// tried again while the window stays open, as when every look tried it: no transition is
    /// due, yet the third try starts it.
    @Test func anOutputThatWouldNotStartIsTriedAgainWithinItsWindow() throws {
        try WallClockSetting.exclusively {
            final class StartsAtTheThirdTry: Sendable {
                let tries = Atomic<Int>(0)
            }
            let attempts = StartsAtTheThirdTry()
            final class Failing: StreamOutput {
                let name = "failing"
                let threadName = "failing"
                let attempts: StartsAtTheThirdTry
                init(_ attempts: StartsAtTheThirdTry) { self.attempts = attempts }
                func open() throws(OutputFailure) {
                    if attempts.tries.add(1, ordering: .relaxed).newValue < 3 { throw OutputFailure(output: name, reason: "not yet") }
                }
                func write(_ packet: MediaPacket) {}
                func finish(endTime: Int64, drainSeconds: Double) {}
                var statistics: OutputStatistics { OutputStatistics() }
            }
            let opensAt = WallClockAlarm.secondsNow + 1
            let output = ScheduledOutput(
                name: "scheduled", meter: OutputMeter(name: "rtmp-1", kind: "rtmp", target: "test"),
                logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                window: {
                    let now = WallClockAlarm.secondsNow
                    return now < opensAt
                        ? ScheduledOutput.Look(window: .closed(next: "soon", inSeconds: opensAt - now), lookedAt: now, changesAt: opensAt)
                        : ScheduledOutput.Look(window: .open(closes: nil), lookedAt: now, changesAt: nil)
                },
                make: { Failing(attempts) })
            try output.open()
            defer { output.finish(endTime: 0, drainSeconds: 0) }
            let deadline = MonotonicTime.now().adding(nanoseconds: 30_000_000_000)
            while output.current.withLock({ $0 }) == nil, MonotonicTime.now() < deadline { usleep(1_000) }
            #expect(output.current.withLock { $0 } != nil, "tried \(attempts.tries.load(ordering: .relaxed)) times, never again after a failure")
            #expect(attempts.tries.load(ordering: .relaxed) == 3)
        }
    }
}
