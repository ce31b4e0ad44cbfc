/// One window of a schedule: open from `from` to `to` on each of `days` (the day it opens).
public struct ScheduleWindow: Sendable, Hashable, CustomStringConvertible {
    public var days: WeekdaySet
    public var from: ScheduleBound
    public var to: ScheduleBound

    public init(days: WeekdaySet = .everyDay, from: ScheduleBound, to: ScheduleBound) {
        self.days = days
        self.from = from
        self.to = to
    }

    /// A window whose `to` comes at or before its `from` in the day closes the next day:
    /// `22:00`–`06:00`, `sunset`–`sunrise`. Decided once for the window, not day by day, so a
    /// window keeps its shape through the seasons (ScheduleBound.nominalSecondsOfDay).
    public var crossesMidnight: Bool {
        to.nominalSecondsOfDay <= from.nominalSecondsOfDay
    }

    public var usesSun: Bool { from.isSolar || to.isSolar }

    /// `Mon-Fri 07:30-sunset+15m`
    public var description: String {
        "\(days) \(from)–\(to)"
    }
}
