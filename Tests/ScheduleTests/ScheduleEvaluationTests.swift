import Schedule
import Testing

@Suite struct ScheduleEvaluationTests {
    let berlin = try! ScheduleTimeZone(identifier: "Europe/Berlin")

    /// 29 March 2026: Berlin's clocks go from 02:00 CET to 03:00 CEST (01:00 UTC); 02:30 is never
    /// shown, so a window from 02:30 opens at the first instant after the gap, 03:00 CEST.
    @Test func springForwardNightOpensAndClosesEachWindowOnce() throws {
        let schedule = Schedule(windows: [try window("02:30", "03:30"), try window("22:00", "06:00")], timeZone: berlin)
        // The two windows overlap (22:00 CET to 06:00 CEST holds 03:00–03:30), so the stream sees one
        // opening and one closing that night.
        let merged = schedule.transitions(after: utc(2026, 3, 28, 12), count: 2)
        #expect(merged.map(\.kind) == [.start, .stop])
        #expect(merged.map(\.at) == [utc(2026, 3, 28, 21), utc(2026, 3, 29, 4)])

        let alone = Schedule(windows: [try window("02:30", "03:30")], timeZone: berlin)
        let night = alone.transitions(after: utc(2026, 3, 28, 23), count: 2)
        #expect(night.map(\.kind) == [.start, .stop])
        #expect(night.map(\.at) == [utc(2026, 3, 29, 1), utc(2026, 3, 29, 1, 30)])
        #expect(night.first?.source == "02:30 = 03:00 (clock change)")
        #expect(alone.flipsByPolling(from: utc(2026, 3, 28, 22), to: utc(2026, 3, 29, 22)).count == 2)
    }

    /// 25 October 2026: Berlin's clocks go from 03:00 CEST back to 02:00 CET (01:00 UTC); 02:30
    /// is shown twice, and a window from 02:30 opens at the first.
    @Test func fallBackNightOpensAndClosesEachWindowOnce() throws {
        let alone = Schedule(windows: [try window("02:30", "03:30")], timeZone: berlin)
        let night = alone.transitions(after: utc(2026, 10, 24, 20), count: 2)
        #expect(night.map(\.kind) == [.start, .stop])
        #expect(night.map(\.at) == [utc(2026, 10, 25, 0, 30), utc(2026, 10, 25, 2, 30)])
        // Polled minute by minute through the night: open once, closed once, no second opening at
        // the second 02:30.
        let flips = alone.flipsByPolling(from: utc(2026, 10, 24, 20), to: utc(2026, 10, 25, 20))
        #expect(flips.map(\.0) == [.start, .stop])
        #expect(flips.map(\.1) == night.map(\.at))

        let earlyNight = Schedule(windows: [try window("01:00", "02:30")], timeZone: berlin)
        #expect(earlyNight.transitions(after: utc(2026, 10, 24, 20), count: 2).map(\.at) == [utc(2026, 10, 24, 23), utc(2026, 10, 25, 0, 30)])
    }

    @Test func windowAcrossMidnightBelongsToTheDayItOpens() throws {
        // Friday nights only: open Fri 22:00 to Sat 02:00.
        let schedule = Schedule(windows: [try window("Fri", "22:00", "02:00")], timeZone: berlin)
        #expect(schedule.windows[0].crossesMidnight)
        // 2026-06-05 is a Friday (CEST, UTC+2).
        #expect(!schedule.isOpen(at: utc(2026, 6, 5, 19, 59)))
        #expect(schedule.isOpen(at: utc(2026, 6, 5, 20)))
        #expect(schedule.isOpen(at: utc(2026, 6, 5, 23, 30)))  // Sat 01:30
        #expect(!schedule.isOpen(at: utc(2026, 6, 6, 0)))  // Sat 02:00: closed at its end
        #expect(!schedule.isOpen(at: utc(2026, 6, 4, 23, 30)))  // Fri 01:30: Thursday has no window
        let transitions = schedule.transitions(after: utc(2026, 6, 1), count: 4)
        #expect(transitions.map(\.at) == [utc(2026, 6, 5, 20), utc(2026, 6, 6, 0), utc(2026, 6, 12, 20), utc(2026, 6, 13, 0)])
        #expect(transitions.map(\.source) == ["22:00", "02:00", "22:00", "02:00"])
    }

    @Test func weekdayRangesAndLists() throws {
        let office = Schedule(windows: [try window("Mon-Fri", "09:00", "17:00")], timeZone: .utc)
        // 2026-06-05 is a Friday.
        #expect(office.isOpen(at: utc(2026, 6, 5, 12)))
        #expect(!office.isOpen(at: utc(2026, 6, 6, 12)))
        #expect(!office.isOpen(at: utc(2026, 6, 7, 12)))
        #expect(office.transitions(after: utc(2026, 6, 5, 18), count: 1).map(\.at) == [utc(2026, 6, 8, 9)])
        #expect(try WeekdaySet(parsing: ["Fri-Mon"]).days == [.friday, .saturday, .sunday, .monday])
        #expect(try WeekdaySet(parsing: ["mon, wed", "Friday"]).days == [.monday, .wednesday, .friday])
        #expect(try WeekdaySet(parsing: ["Mon-Fri"]).description == "Mon-Fri")
        #expect(throws: WeekdaySet.ParseError.self) { try WeekdaySet(parsing: ["Mon-Fry"]) }
        #expect(throws: WeekdaySet.ParseError.self) { try WeekdaySet(parsing: ["Funday"]) }
    }

    @Test func overlappingAndTouchingWindowsAreOneOpening() throws {
        let schedule = Schedule(windows: [try window("06:00", "09:00"), try window("08:00", "12:00"), try window("12:00", "13:00")], timeZone: .utc)
        let transitions = schedule.transitions(after: utc(2026, 6, 1), count: 2)
        #expect(transitions.map(\.at) == [utc(2026, 6, 1, 6), utc(2026, 6, 1, 13)])
    }

    @Test func sunWindowsNameTheEventTheyCameFrom() throws {
        // Berlin, 21 December 2024: sunset 15:54:41 by the Stiftung Planetarium Berlin (SolarCalculatorTests).
        let schedule = Schedule(windows: [try window("sunrise-30m", "sunset+15m")],
                                location: GeoLocation(latitude: 52.52, longitude: 13.41), timeZone: berlin)
        let transitions = schedule.transitions(after: utc(2024, 12, 21), count: 2)
        #expect(transitions.map(\.kind) == [.start, .stop])
        let stop = try #require(transitions.last)
        let stopLocal = berlin.local(stop.at).time
        #expect(abs(stopLocal.secondsOfDay - (16 * 3600 + 9 * 60 + 41)) <= 120, "\(stop)")
        #expect(stop.source == "sunset+15m = \(stopLocal)")
        let start = try #require(transitions.first)
        #expect(start.source == "sunrise-30m = \(berlin.local(start.at).time)")
        #expect(abs(berlin.local(start.at).time.secondsOfDay - (7 * 3600 + 44 * 60 + 38)) <= 120, "\(start)")
    }

    /// Tromsø (Europe/Oslo): the sun does not set from about 18 May to 25 July, and does not rise
    /// from about 26 November to 15 January.
    @Test func polarDayAndNightOpenOrCloseAllDayAsTheSunSays() throws {
        let oslo = try ScheduleTimeZone(identifier: "Europe/Oslo")
        let tromso = GeoLocation(latitude: 69.65, longitude: 18.96)
        let daytime = Schedule(windows: [try window("sunrise", "sunset")], location: tromso, timeZone: oslo)
        let nighttime = Schedule(windows: [try window("sunset", "sunrise")], location: tromso, timeZone: oslo)
        let twilight = Schedule(windows: [try window("dawn", "dusk")], location: tromso, timeZone: oslo)
        for hour in [0, 6, 12, 18, 23] {
            #expect(daytime.isOpen(at: utc(2026, 6, 21, hour)), "midsummer \(hour):00 UTC")
            #expect(!nighttime.isOpen(at: utc(2026, 6, 21, hour)), "midsummer \(hour):00 UTC")
            #expect(!daytime.isOpen(at: utc(2026, 12, 21, hour)), "midwinter \(hour):00 UTC")
            #expect(nighttime.isOpen(at: utc(2026, 12, 21, hour)), "midwinter \(hour):00 UTC")
        }
        // Midwinter still has civil twilight around noon.
        #expect(twilight.isOpen(at: utc(2026, 12, 21, 11)))
        #expect(!twilight.isOpen(at: utc(2026, 12, 21, 16)))
        // Through the midnight sun the day window never closes at midnight: its next stop is the
        // first sunset, late in July.
        let next = try #require(daytime.transitions(after: utc(2026, 6, 10), count: 1).first)
        #expect(next.kind == .stop)
        #expect(next.at > utc(2026, 7, 20) && next.at < utc(2026, 7, 31), "\(next)")
        // And the night window opens at that first sunset, named as such.
        let opening = try #require(nighttime.transitions(after: utc(2026, 6, 10), count: 1).first)
        #expect(opening.kind == .start && opening.source.hasPrefix("sunset = "), "\(opening)")
        #expect(daytime.flipsByPolling(from: utc(2026, 6, 1), to: utc(2026, 7, 1), step: 900).isEmpty)
    }

    @Test func pollingAgreesWithTransitionsThroughAWeek() throws {
        let schedule = Schedule(
            windows: [try window("Mon-Fri", "dawn", "08:30"), try window("Sat,Sun", "sunset-1h", "23:30"), try window("Fri", "22:00", "sunrise")],
            location: GeoLocation(latitude: 52.52, longitude: 13.41), timeZone: berlin)
        let start = utc(2026, 10, 20)
        let flips = schedule.flipsByPolling(from: start, to: utc(2026, 10, 28))
        let transitions = schedule.transitions(after: start, count: flips.count + 1).filter { $0.at <= utc(2026, 10, 28) }
        // Polling sees a transition at the first whole minute at or after it.
        #expect(flips.map(\.0) == transitions.map(\.kind))
        #expect(zip(flips, transitions).allSatisfy { $0.1 <= $1.at.adding(seconds: 60) && $0.1 >= $1.at })
        #expect(flips.count >= 14)
    }

    @Test func aClockBefore2026IsUnsetNotAnError() throws {
        let schedule = Schedule(windows: [try window("09:00", "17:00")], timeZone: .utc)
        #expect(schedule.state(at: WallTime(secondsSince1970: 42)) == .unsetClock)
        #expect(schedule.state(at: utc(2025, 12, 31, 12)) == .unsetClock)
        guard case .open(let next) = schedule.state(at: utc(2026, 6, 1, 12)) else {
            Issue.record("not open at noon")
            return
        }
        #expect(next?.at == utc(2026, 6, 1, 17))
        guard case .closed(let opening) = schedule.state(at: utc(2026, 6, 1, 18)) else {
            Issue.record("not closed at 18:00")
            return
        }
        #expect(opening?.at == utc(2026, 6, 2, 9))
    }
}
