import Capture
import Encoder
import Media
import RTMPAddress
import Schedule
import Testing

@testable import CamcastDaemon

/// When the source and the encoder rest between windows (`idle: close`, issue 44): only while
/// every output rests by its schedule and none opens within the lead.
@Suite struct IdleRestDecisionTests {
    static let berlin = try! ScheduleTimeZone(identifier: "Europe/Berlin")
    static let stream = OutputTarget.rtmp(try! RTMPURL(parsing: "rtmp://127.0.0.1/live/one"))
    static let backup = OutputTarget.rtmp(try! RTMPURL(parsing: "rtmp://127.0.0.1/live/two"))
    static let file = OutputTarget.flvFile(path: "/var/lib/camcast/a.flv")
    /// Monday 2026-11-30, 07:30 in Berlin (06:30 UTC): `date -d '2026-11-30 07:30 CET' +%s`.
    static let mondayHalfPastSeven = WallTime(secondsSince1970: 1_796_020_200)

    static func schedule(_ from: String, _ to: String) throws -> Schedule {
        Schedule(
            windows: [ScheduleWindow(days: try WeekdaySet(parsing: ["Mon-Sun"]), from: try ScheduleBound(parsing: from), to: try ScheduleBound(parsing: to))],
            timeZone: berlin)
    }

    static func settings(_ outputs: [OutputTarget], schedules: [OutputTarget: Schedule]) -> RunSettings {
        var settings = RunSettings(
            source: .testPattern,
            encoder: EncoderSettings(size: VideoSize(width: 640, height: 360), frameRate: FrameRate(numerator: 30, denominator: 1), bitrateKbps: 1000),
            outputs: outputs)
        settings.outputSchedules = schedules
        return settings
    }

    static func at(secondsFromHalfPastSeven offset: Int64) -> WallTime {
        WallTime(secondsSince1970: mondayHalfPastSeven.secondsSince1970 + offset)
    }

    @Test func restsUntilTheLeadBeforeTheWindowThenRuns() throws {
        let settings = Self.settings([Self.stream], schedules: [Self.stream: try Self.schedule("07:30", "08:00")])
        let lead = IdleRest.wakeLeadSeconds
        guard case .rest(let until?) = IdleRest.decide(settings, at: Self.at(secondsFromHalfPastSeven: -lead - 1)) else {
            Issue.record("not resting a second before the lead")
            return
        }
        #expect(until.contains("2026-11-30 07:30"), "\(until)")
        #expect(IdleRest.decide(settings, at: Self.at(secondsFromHalfPastSeven: -lead)) == .run)
        #expect(IdleRest.decide(settings, at: Self.at(secondsFromHalfPastSeven: 0)) == .run)
        #expect(IdleRest.decide(settings, at: Self.at(secondsFromHalfPastSeven: 29 * 60)) == .run)
        // 08:00: the window is over; the next opens tomorrow.
        #expect(IdleRest.decide(settings, at: Self.at(secondsFromHalfPastSeven: 30 * 60)) != .run)
    }

    @Test func anyOutputInItsWindowOrWithoutAScheduleKeepsTheSourceRunning() throws {
        let morning = try Self.schedule("07:30", "08:00")
        let evening = try Self.schedule("18:00", "19:00")
        let halfPastSix = Self.at(secondsFromHalfPastSeven: -3600)
        #expect(IdleRest.decide(Self.settings([Self.stream, Self.backup], schedules: [Self.stream: morning, Self.backup: evening]), at: halfPastSix) != .run)
        // The earliest start is the one it rests until.
        let both = IdleRest.decide(Self.settings([Self.stream, Self.backup], schedules: [Self.stream: evening, Self.backup: morning]), at: halfPastSix)
        #expect(both == IdleRest.decide(Self.settings([Self.backup], schedules: [Self.backup: morning]), at: halfPastSix))
        #expect(IdleRest.decide(Self.settings([Self.stream, Self.backup], schedules: [Self.stream: morning, Self.backup: evening]), at: Self.at(secondsFromHalfPastSeven: 60)) == .run)
        // A .flv file output has no schedule: it runs always, and the source with it.
        #expect(IdleRest.decide(Self.settings([Self.stream, Self.file], schedules: [Self.stream: morning]), at: halfPastSix) == .run)
    }

    @Test func keepNeverRests() throws {
        var settings = Self.settings([Self.stream], schedules: [Self.stream: try Self.schedule("07:30", "08:00")])
        settings.idle = .keep
        #expect(IdleRest.decide(settings, at: Self.at(secondsFromHalfPastSeven: -3600)) == .run)
    }

    @Test func anUnsetClockRestsOnlyWithUnsetClockRest() throws {
        var settings = Self.settings([Self.stream], schedules: [Self.stream: try Self.schedule("07:30", "08:00")])
        let in1970 = WallTime(secondsSince1970: 1000)
        #expect(IdleRest.decide(settings, at: in1970) == .run)
        settings.unsetClock = .rest
        #expect(IdleRest.decide(settings, at: in1970) == .rest(until: "the clock is set (unset_clock: rest)"))
    }
}
