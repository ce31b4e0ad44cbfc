/// How a schedule reads to its user: `camcast check-config` prints these, and /status will.
extension Schedule {
    /// `Mon-Fri 07:30–sunset+15m; Sat,Sun 10:00–12:00`
    public var windowsDescription: String {
        windows.map(\.description).joined(separator: "; ")
    }

    /// `Europe/Berlin, at 52.52° N 13.41° E` (the location only when a window uses the sun).
    public var placeDescription: String {
        guard usesSun, let location else { return timeZone.identifier }
        return "\(timeZone.identifier), at \(Self.degrees(location.latitude, "N", "S")) \(Self.degrees(location.longitude, "E", "W"))"
    }

    /// `start Mon 2026-11-30 07:30 +01:00  (sunrise-30m = 07:30)` in the schedule's zone.
    public func localDescription(of transition: ScheduleTransition) -> String {
        let local = timeZone.local(transition.at)
        let offset = timeZone.offset(at: transition.at)
        let sign = offset < 0 ? "-" : "+"
        let zone = "\(sign)\(LocalTime(secondsOfDay: abs(offset)).description)"
        let kind = transition.kind == .start ? "start" : "stop "
        return "\(kind) \(local.date.weekday) \(local.date) \(local.time) \(zone)  (\(transition.source))"
    }

    private static func degrees(_ value: Double, _ positive: String, _ negative: String) -> String {
        let rounded = (abs(value) * 10_000).rounded() / 10_000
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        return "\(text)° \(value < 0 ? negative : positive)"
    }
}
