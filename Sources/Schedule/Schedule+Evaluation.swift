extension Schedule {
    /// Open or closed at `instant`, with the next transition; `.unsetClock` before
    /// `earliestPlausible` (a clock not yet set).
    public func state(at instant: WallTime, earliestPlausible: WallTime = Schedule.earliestPlausibleTime) -> ScheduleState {
        guard instant >= earliestPlausible else { return .unsetClock }
        let next = transitions(after: instant, count: 1).first
        return isOpen(at: instant) ? .open(next: next) : .closed(next: next)
    }

    /// Whether a window holds `instant` (a window closes at its `to`: the end is not in it).
    public func isOpen(at instant: WallTime) -> Bool {
        let today = timeZone.local(instant).date
        return intervals(from: today.adding(days: -2), through: today).contains { $0.start.at <= instant && instant < $0.end.at }
    }

    /// The next `count` starts and stops strictly after `instant`, in order. Windows that overlap
    /// or touch are one: a stream open 22:00–06:00 and 06:00–09:00 does not stop at 06:00. Fewer
    /// than `count` when nothing changes within `Schedule.horizonDays`.
    public func transitions(after instant: WallTime, count: Int) -> [ScheduleTransition] {
        guard count > 0 else { return [] }
        let today = timeZone.local(instant).date
        var span = 8
        while true {
            let lastDay = today.adding(days: span)
            // Boundaries before the first midnight after `lastDay` are final: a window of a later
            // day opens at or after it, and cannot merge into them.
            let limit = timeZone.instant(on: lastDay.adding(days: 1), secondsOfDay: 0)
            var found: [ScheduleTransition] = []
            for interval in intervals(from: today.adding(days: -2), through: lastDay) {
                for transition in [interval.start, interval.end] where transition.at > instant && transition.at < limit {
                    found.append(transition)
                }
            }
            if found.count >= count || span >= Self.horizonDays {
                return Array(found.prefix(count))
            }
            span = min(span * 4, Self.horizonDays)
        }
    }

    /// The merged open intervals of the windows that open on the days `first` … `last`.
    func intervals(from first: CivilDate, through last: CivilDate) -> [(start: ScheduleTransition, end: ScheduleTransition)] {
        var all: [(start: ScheduleTransition, end: ScheduleTransition)] = []
        var day = first
        while day <= last {
            for window in windows {
                if let interval = interval(of: window, openingOn: day) { all.append(interval) }
            }
            day = day.adding(days: 1)
        }
        all.sort { $0.start.at < $1.start.at }
        var merged: [(start: ScheduleTransition, end: ScheduleTransition)] = []
        for interval in all {
            if let last = merged.last, interval.start.at <= last.end.at {
                if interval.end.at > last.end.at { merged[merged.count - 1].end = interval.end }
            } else {
                merged.append(interval)
            }
        }
        return merged
    }

    /// The window's interval when it opens on `day`, or nil when it does not open that day (not
    /// one of its days, or its sun event does not come, or it would close before it opens).
    func interval(of window: ScheduleWindow, openingOn day: CivilDate) -> (start: ScheduleTransition, end: ScheduleTransition)? {
        guard window.days.contains(day.weekday),
              let start = resolve(window.from, on: day, opening: true),
              let end = resolve(window.to, on: window.crossesMidnight ? day.adding(days: 1) : day, opening: false),
              end.at > start.at
        else { return nil }
        return (ScheduleTransition(kind: .start, at: start.at, source: start.source),
                ScheduleTransition(kind: .stop, at: end.at, source: end.source))
    }

    /// A bound's instant on `day`. A sun event that does not come that day becomes a day
    /// boundary, as the sun says: a window that opens at sunrise is open from midnight on a polar
    /// day and does not open in a polar night; one that closes at sunset stays open to the next
    /// midnight on a polar day and closes at the day's first midnight in a polar night. Sunset,
    /// dusk and civil dawn follow by mirror image. nil: an opening bound that never comes.
    func resolve(_ bound: ScheduleBound, on day: CivilDate, opening: Bool) -> (at: WallTime, source: String)? {
        switch bound {
        case .clock(let time):
            let at = timeZone.instant(on: day, secondsOfDay: time.secondsOfDay)
            let shown = timeZone.local(at).time
            return (at, shown == time ? "\(time)" : "\(time) = \(shown) (clock change)")
        case .solar(let event, let offset):
            // Sun bounds are checked against a location when the schedule is made (Config).
            guard let location else { return nil }
            let noon = timeZone.instant(on: day, secondsOfDay: 12 * 3600)
            switch SolarCalculator.occurrence(of: event, on: day, at: location, utcOffsetSeconds: timeZone.offset(at: noon)) {
            case .at(let eventInstant):
                let at = eventInstant.adding(seconds: Int64(offset))
                return (at, "\(bound) = \(timeZone.local(at).time)")
            case let polar:
                let sunUp = polar == .alwaysUp
                // Does "after this event" hold all day (true) or never (false)?
                let afterHoldsAllDay = event.isRising == sunUp
                let name = sunUp ? (event.zenithDegrees > 90.833 ? "white night" : "polar day") : "polar night"
                if opening {
                    guard afterHoldsAllDay else { return nil }
                    return (timeZone.instant(on: day, secondsOfDay: 0), "\(bound) (no \(event): \(name)) = 00:00")
                }
                if afterHoldsAllDay {
                    return (timeZone.instant(on: day, secondsOfDay: 0), "\(bound) (no \(event): \(name)) = 00:00")
                }
                return (timeZone.instant(on: day.adding(days: 1), secondsOfDay: 0), "\(bound) (no \(event): \(name)) = 24:00")
            }
        }
    }
}
