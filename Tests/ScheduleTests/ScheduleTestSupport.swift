import Schedule

/// An instant written as UTC: `utc(2026, 3, 29, 1, 0)`.
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> WallTime {
    WallTime(secondsSince1970: CivilDate(year: year, month: month, day: day).daysSince1970 * 86_400 + Int64(hour * 3600 + minute * 60))
}

func window(_ days: String, _ from: String, _ to: String) throws -> ScheduleWindow {
    ScheduleWindow(days: try WeekdaySet(parsing: [days]), from: try ScheduleBound(parsing: from), to: try ScheduleBound(parsing: to))
}

/// A window on every day.
func window(_ from: String, _ to: String) throws -> ScheduleWindow {
    try window("Mon-Sun", from, to)
}

extension Schedule {
    /// Every flip of `isOpen` from `start` to `end`, minute by minute: what a runtime polling
    /// the schedule would see, for comparing with `transitions(after:count:)`.
    func flipsByPolling(from start: WallTime, to end: WallTime, step: Int64 = 60) -> [(ScheduleTransition.Kind, WallTime)] {
        var flips: [(ScheduleTransition.Kind, WallTime)] = []
        var open = isOpen(at: start)
        var instant = start
        while instant < end {
            instant = instant.adding(seconds: step)
            let now = isOpen(at: instant)
            if now != open { flips.append((now ? .start : .stop, instant)) }
            open = now
        }
        return flips
    }
}
