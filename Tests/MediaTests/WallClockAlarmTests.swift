import Glibc
import Media
import Synchronization
import Testing
import TestSupport

/// The wait a schedule's watcher sleeps on between transitions (issue 39 item 4): it ends at its
/// wall-clock instant (never before), at a setting of the wall clock, at its event, or at its
/// monotonic bound. Waits that should end at once are given bounds 30 s away, which no answer
/// needs on any machine: a lost wake-up shows as that wait, not as a flake.
@Suite struct WallClockAlarmTests {
    static let far: UInt64 = 30_000_000_000

    @Test func aWaitEndsWhenTheWallClockReachesItsInstantNeverBefore() throws {
        try WallClockSetting.exclusively {
            let alarm = try WallClockAlarm()
            let event = try WakeEvent()
            let lookedAt = WallClockAlarm.secondsNow
            let wake = alarm.wait(untilWallSecond: lookedAt + 2, lookedAt: lookedAt, lookAgainBy: .now().adding(nanoseconds: Self.far), or: event)
            #expect(wake == .due)
            #expect(WallClockAlarm.secondsNow >= lookedAt + 2, "woke before the instant")
        }
    }

    @Test func anInstantAlreadyPastEndsTheWaitAtOnce() throws {
        try WallClockSetting.exclusively {
            let alarm = try WallClockAlarm()
            let event = try WakeEvent()
            let lookedAt = WallClockAlarm.secondsNow
            #expect(alarm.wait(untilWallSecond: lookedAt - 60, lookedAt: lookedAt, lookAgainBy: .now().adding(nanoseconds: Self.far), or: event) == .due)
        }
    }

    @Test func theEventEndsTheWaitAndWinsOverAnInstantDueTogether() throws {
        try WallClockSetting.exclusively {
            let alarm = try WallClockAlarm()
            let event = try WakeEvent()
            let lookedAt = WallClockAlarm.secondsNow
            let woke = SharedLock<WallClockAlarm.Wake?>(nil)
            let waiter = try DedicatedThread {
                let wake = alarm.wait(untilWallSecond: nil, lookedAt: lookedAt, lookAgainBy: .now().adding(nanoseconds: Self.far), or: event)
                woke.withLock { $0 = wake }
            }
            event.signal()
            waiter.join()
            #expect(woke.withLock { $0 } == .signalled)
            // Signalled and due at once: the stop wins.
            #expect(alarm.wait(untilWallSecond: lookedAt - 60, lookedAt: lookedAt, or: event) == .signalled)
        }
    }

    @Test func theMonotonicBoundEndsAWaitWithoutInstant() throws {
        try WallClockSetting.exclusively {
            let alarm = try WallClockAlarm()
            let event = try WakeEvent()
            let bound = MonotonicTime.now().adding(nanoseconds: 20_000_000)
            #expect(alarm.wait(untilWallSecond: nil, lookedAt: WallClockAlarm.secondsNow, lookAgainBy: bound, or: event) == .lookAgain)
            #expect(MonotonicTime.now() >= bound)
        }
    }

    /// A setting of the wall clock (NTP's step, a manual change) ends the wait: a step back may
    /// put an earlier transition ahead. The clock is "set" here by a step of nothing
    /// (`ADJ_SETOFFSET` of 0), which the kernel reports as a setting all the same and which moves
    /// no clock; it needs CAP_SYS_TIME. Stepped again every few ms until the wait ends, since the
    /// test cannot see when the timer is armed.
    @Test(.enabled(if: WallClockSetting.isPermitted, "setting the wall clock needs CAP_SYS_TIME"))
    func aSettingOfTheWallClockEndsTheWait() throws {
        try WallClockSetting.exclusively {
            let alarm = try WallClockAlarm()
            let event = try WakeEvent()
            let woke = SharedLock<WallClockAlarm.Wake?>(nil)
            let waiter = try DedicatedThread {
                let lookedAt = WallClockAlarm.secondsNow
                let wake = alarm.wait(untilWallSecond: lookedAt + 3600, lookedAt: lookedAt, lookAgainBy: .now().adding(nanoseconds: Self.far), or: event)
                woke.withLock { $0 = wake }
            }
            while woke.withLock({ $0 }) == nil {
                #expect(WallClockSetting.byNothing())
                usleep(5_000)
            }
            waiter.join()
            #expect(woke.withLock { $0 } == .clockSet)
        }
    }
}
