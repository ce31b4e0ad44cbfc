import Config
import Schedule

extension IdleRest {
    /// What the schedules ask of the source and the encoder at one instant.
    enum Decision: Equatable {
        case run
        /// Every output rests, and none opens within `wakeLeadSeconds`: the source and the encoder
        /// rest too. `until`: the first start to come, as the operator reads it (nil: none known).
        case rest(until: String?)
    }

    /// Rest only with `idle: close` and when every output follows a schedule that is closed now
    /// and does not open within the lead. An output without a schedule (a .flv or .h264 file runs
    /// always, a recording without one too) keeps the source running, and so does a clock that is
    /// not set unless `unset_clock: rest` says its outputs rest. Pure: the settings and the instant.
    static func decide(_ settings: RunSettings, at now: WallTime) -> Decision {
        guard settings.idle == .close, !settings.outputs.isEmpty else { return .run }
        var first: (at: WallTime, text: String)?
        var clockUnset = false
        for target in settings.outputs {
            guard let schedule = settings.outputSchedules[target] else { return .run }
            switch schedule.state(at: now) {
            case .open:
                return .run
            case .unsetClock:
                guard settings.unsetClock == .rest else { return .run }
                clockUnset = true
            case .closed(let next):
                guard let next else { continue }
                if next.at.secondsSince1970 - now.secondsSince1970 <= wakeLeadSeconds { return .run }
                if first.map({ next.at < $0.at }) ?? true { first = (next.at, schedule.localDescription(of: next)) }
            }
        }
        return .rest(until: first?.text ?? (clockUnset ? "the clock is set (unset_clock: rest)" : nil))
    }
}
