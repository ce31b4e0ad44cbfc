import Media
import Testing

@testable import CamcastDaemon
@testable import Outputs

/// When the source and the encoder rest between windows (`idle: close`, issue 44): only while
/// every output rests by its schedule and none opens within the lead.
@Suite struct IdleRestDecisionTests {
    static let now = MonotonicTime(nanoseconds: 1_000_000_000_000)

    /// An output resting until `seconds` from now.
    static func resting(opensIn seconds: Int64, _ next: String = "start Mon 07:30") -> ScheduleRest {
        ScheduleRest(opensAt: now.adding(nanoseconds: UInt64(seconds) * 1_000_000_000), next: next)
    }

    @Test func restsUntilTheLeadBeforeTheWindowThenRuns() {
        let lead = IdleRest.wakeLeadSeconds
        #expect(IdleRest.decide(idle: .close, rests: [Self.resting(opensIn: lead + 1)], now: Self.now) == .rest(until: "start Mon 07:30"))
        #expect(IdleRest.decide(idle: .close, rests: [Self.resting(opensIn: lead)], now: Self.now) == .run)
        #expect(IdleRest.decide(idle: .close, rests: [Self.resting(opensIn: 0)], now: Self.now) == .run)
        // In its window: the output publishes nothing about a rest.
        #expect(IdleRest.decide(idle: .close, rests: [nil], now: Self.now) == .run)
    }

    @Test func everyOutputMustRestAndTheEarliestStartCounts() {
        let morning = Self.resting(opensIn: 600, "start 07:30"), evening = Self.resting(opensIn: 36_000, "start 18:00")
        #expect(IdleRest.decide(idle: .close, rests: [evening, morning], now: Self.now) == .rest(until: "start 07:30"))
        #expect(IdleRest.decide(idle: .close, rests: [morning, evening], now: Self.now) == .rest(until: "start 07:30"))
        // One in its window, or one without a schedule (a .flv file output runs always): no rest.
        #expect(IdleRest.decide(idle: .close, rests: [morning, nil], now: Self.now) == .run)
        #expect(IdleRest.decide(idle: .close, rests: [], now: Self.now) == .run)
    }

    @Test func keepNeverRests() {
        #expect(IdleRest.decide(idle: .keep, rests: [Self.resting(opensIn: 3600)], now: Self.now) == .run)
    }

    @Test func aRestWithNoKnownStartLastsUntilOneIsKnown() {
        // A clock not yet set with `unset_clock: rest`, or no window within a year.
        let unset = ScheduleRest(opensAt: nil, next: "the clock is set (unset_clock: rest)")
        #expect(IdleRest.decide(idle: .close, rests: [unset], now: Self.now) == .rest(until: "the clock is set (unset_clock: rest)"))
        #expect(IdleRest.decide(idle: .close, rests: [ScheduleRest(opensAt: nil, next: nil)], now: Self.now) == .rest(until: nil))
        // A known start is named before the unknown one.
        #expect(IdleRest.decide(idle: .close, rests: [unset, Self.resting(opensIn: 60)], now: Self.now) == .rest(until: "start Mon 07:30"))
    }
}
