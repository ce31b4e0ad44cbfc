/// When a stream (or one output, or the recording) is wanted: a list of windows in a time zone,
/// and the place on earth its sun events are computed for.
///
/// A value is pure: it answers "is it open at this instant" and "what are the next transitions
/// after this instant". A runtime asks again whenever the wall clock steps.
public struct Schedule: Sendable, Equatable {
    public var windows: [ScheduleWindow]
    /// Needed only when a window names a sun event.
    public var location: GeoLocation?
    public var timeZone: ScheduleTimeZone

    public init(windows: [ScheduleWindow], location: GeoLocation? = nil, timeZone: ScheduleTimeZone) {
        self.windows = windows
        self.location = location
        self.timeZone = timeZone
    }

    /// A clock showing a time before this has not been set yet (1970 on a box without a real-time
    /// clock before NTP's first sync): 2026-01-01, before this code was written, so no correct
    /// clock can be earlier.
    public static let earliestPlausibleTime = WallTime(secondsSince1970: 1_767_225_600)

    /// How far ahead `transitions(after:count:)` looks: a polar day or night keeps a sun window
    /// open or shut for months, and a year always reaches the next change if there is one.
    public static let horizonDays = 400

    public var usesSun: Bool { windows.contains(where: \.usesSun) }
}

/// A window opening or closing, and what it came from: `sunset+15m = 16:47`.
public struct ScheduleTransition: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable { case start, stop }

    public var kind: Kind
    public var at: WallTime
    /// The bound as written, with its local time that day when it is not a plain clock time:
    /// `07:30`, `sunset+15m = 16:47`, `sunrise (none: polar day) = 00:00`.
    public var source: String

    public init(kind: Kind, at: WallTime, source: String) {
        self.kind = kind
        self.at = at
        self.source = source
    }

    public var description: String { "\(kind) at \(at) (\(source))" }
}

/// What a schedule says at one instant.
public enum ScheduleState: Sendable, Equatable {
    /// In a window; it closes at `next` (nil: not within `Schedule.horizonDays`).
    case open(next: ScheduleTransition?)
    /// Between windows; the next opens at `next` (nil: none within the horizon).
    case closed(next: ScheduleTransition?)
    /// The wall clock shows a time before `Schedule.earliestPlausibleTime`: it has not been set,
    /// so no window can be trusted. The caller decides (`unset_clock: stream | rest`).
    case unsetClock
}
