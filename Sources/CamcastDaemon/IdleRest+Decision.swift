import Config
import Media
import Outputs

extension IdleRest {
    /// What the outputs' schedules ask of the source and the encoder at one instant.
    enum Decision: Equatable {
        case run
        /// Every output rests, and none opens within `wakeLeadSeconds`: the source and the encoder
        /// rest too. `until`: the first start to come, as the operator reads it, or what the rest
        /// waits for (nil: no window within a year).
        case rest(until: String?)
    }

    /// Rest only with `idle: close` and when every output rests by its schedule (`rests`: each
    /// output's `scheduleRest`, as its own last look saw it) and none opens within the lead. An
    /// output without a schedule (a .flv or .h264 file runs always, so does a recording without
    /// one) keeps the source running. Pure: no clock but `now`, no schedule evaluated here — each
    /// scheduled output evaluates its own at its transitions and at a setting of the clock, and
    /// this reads what that look saw.
    static func decide(idle: CamcastConfig.ScheduleConfig.Idle, rests: [ScheduleRest?], now: MonotonicTime) -> Decision {
        guard idle == .close, !rests.isEmpty else { return .run }
        var first: (at: MonotonicTime, next: String?)?
        var waitsFor: String?
        for rest in rests {
            guard let rest else { return .run }
            guard let opensAt = rest.opensAt else {
                waitsFor = waitsFor ?? rest.next
                continue
            }
            if opensAt.nanoseconds(since: now) <= wakeLeadSeconds * 1_000_000_000 { return .run }
            if first.map({ opensAt < $0.at }) ?? true { first = (opensAt, rest.next) }
        }
        return .rest(until: first?.next ?? waitsFor)
    }
}
