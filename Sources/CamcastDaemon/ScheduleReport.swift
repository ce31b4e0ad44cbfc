import Config
import Schedule

/// What `camcast check-config` says about the schedules: each one's windows, zone and place, and
/// its next three starts and stops in local time with the sun event each came from.
enum ScheduleReport {
    static let transitionsShown = 6

    static func lines(
        _ schedule: CamcastConfig.ScheduleConfig, outputs: [(output: CamcastConfig.OutputConfig, name: String?)], now: WallTime
    ) -> [String] {
        guard !schedule.isEmpty else { return [] }
        var lines: [String] = []
        if now < Schedule.earliestPlausibleTime {
            lines.append("the clock is not set (it shows \(now)): until it is, unset_clock: \(schedule.unsetClock.rawValue) applies")
        }
        if let stream = schedule.stream {
            lines.append("schedule: \(stream.windowsDescription) (\(stream.placeDescription)); idle: \(schedule.idle.rawValue)")
            lines += transitions(of: stream, after: now)
        }
        for (index, item) in outputs.enumerated() {
            let label = "outputs[\(index)] \(item.name ?? item.output.description)"
            switch schedule.outputs[item.output] {
            case .windows(let own):
                lines.append("\(label): schedule \(own.windowsDescription) (\(own.placeDescription))")
                lines += transitions(of: own, after: now)
            case .always:
                lines.append("\(label): always")
            case nil:
                lines.append("\(label): \(schedule.schedule(for: item.output) == nil ? "always" : "the stream's schedule")")
            }
        }
        return lines
    }

    private static func transitions(of schedule: Schedule, after now: WallTime) -> [String] {
        let next = schedule.transitions(after: now, count: transitionsShown)
        let state = schedule.isOpen(at: now) ? "open now" : "closed now"
        guard !next.isEmpty else { return ["  \(state); no start or stop within \(Schedule.horizonDays) days"] }
        return ["  \(state); next:"] + next.map { "    \(schedule.localDescription(of: $0))" }
    }
}
