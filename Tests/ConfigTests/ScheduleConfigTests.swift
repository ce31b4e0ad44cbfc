import Schedule
import Testing

@testable import Config

/// `schedule:` at the top and per output, `location:`, `schedule_timezone:`, `unset_clock:`,
/// `idle:`. Every bad schedule is a problem naming its key and line (camcast exits 78 on any:
/// ScheduleCheckConfigTests runs the binary).
@Suite struct ScheduleConfigTests {
    static let output = "outputs:\n  - url: rtmp://h/live/k\n"

    static func parse(_ yaml: String) throws -> CamcastConfig {
        try CamcastConfig.parse(yaml: yaml, fileName: "f.yaml")
    }

    static func problems(_ yaml: String) throws -> [ConfigProblem] {
        try #require(throws: ConfigError.self) { try parse(yaml) }.problems
    }

    @Test func aFullScheduleParses() throws {
        let config = try Self.parse("""
            schedule:
              - days: Mon-Fri
                from: "07:30"
                to: sunset+15m
              - days: [Sat, Sun]
                from: sunrise-30m
                to: "22:00"
            location:
              latitude: 52.52
              longitude: 13.41
            schedule_timezone: Europe/Berlin
            unset_clock: rest
            idle: keep
            outputs:
              - url: rtmp://h/live/k
              - url: rtmp://h2/live/k
                schedule:
                  - {from: "22:00", to: "06:00"}
              - record: /var/lib/camcast/rec
              - record: /var/lib/camcast/rec2
                schedule:
                  - {days: Sat, from: "10:00", to: "12:00"}
              - path: /tmp/a.flv
                schedule: always
            """)
        let stream = try #require(config.schedule.stream)
        #expect(stream.windows == [
            ScheduleWindow(days: WeekdaySet(days: [.monday, .tuesday, .wednesday, .thursday, .friday]), from: .clock(LocalTime(hour: 7, minute: 30)!), to: .solar(.sunset, offsetSeconds: 900)),
            ScheduleWindow(days: WeekdaySet(days: [.saturday, .sunday]), from: .solar(.sunrise, offsetSeconds: -1800), to: .clock(LocalTime(hour: 22, minute: 0)!)),
        ])
        #expect(stream.timeZone.identifier == "Europe/Berlin")
        #expect(stream.location == GeoLocation(latitude: 52.52, longitude: 13.41))
        #expect(config.schedule.unsetClock == .rest && config.schedule.idle == .keep)
        // The first output follows the stream's; the second its own; a recording records always
        // unless it has its own; `always` overrides the stream's.
        #expect(config.schedule.schedule(for: config.outputs[0]) == stream)
        #expect(config.schedule.schedule(for: config.outputs[1])?.windows.first?.crossesMidnight == true)
        #expect(config.schedule.schedule(for: config.outputs[2]) == nil)
        #expect(config.schedule.schedule(for: config.outputs[3])?.windows.first?.days.days == [.saturday])
        #expect(config.schedule.schedule(for: config.outputs[4]) == nil)
    }

    @Test func withoutAScheduleEverythingStreamsAlways() throws {
        let config = try Self.parse(Self.output)
        #expect(config.schedule == CamcastConfig.ScheduleConfig())
        #expect(config.schedule.isEmpty)
        #expect(config.schedule.unsetClock == .stream && config.schedule.idle == .close)
        #expect(config.schedule.schedule(for: config.outputs[0]) == nil)
    }

    @Test(arguments: [
        ("schedule:\n  - {days: Mon-Fry, from: \"07:00\", to: \"09:00\"}\n", "schedule[0].days", "`Fry` is not a day", 2),
        ("schedule:\n  - {days: Funday, from: \"07:00\", to: \"09:00\"}\n", "schedule[0].days", "`Funday` is not a day", 2),
        ("schedule:\n  - from: \"07:30\"\n    to: \"07:30\"\n", "schedule[0].to", "`07:30` is the same as `from`", 3),
        ("schedule:\n  - {from: sunset, to: sunset}\n", "schedule[0].to", "is the same as `from`", 2),
        ("schedule:\n  - from: \"07:00\"\n    to: sunset\n", "schedule[0].to", "`sunset` needs `location:`", 3),
        ("schedule_timezone: Europe/Berlln\n", "schedule_timezone", "`Europe/Berlln` is not a time zone", 1),
        ("schedule:\n  - {from: \"7.30\", to: \"09:00\"}\n", "schedule[0].from", "`7.30` is not a time", 2),
        ("schedule:\n  - {from: \"25:00\", to: \"09:00\"}\n", "schedule[0].from", "`25:00` is not a time of day", 2),
        ("schedule:\n  - {from: sunset+15, to: \"23:00\"}\nlocation: {latitude: 1, longitude: 2}\n", "schedule[0].from", "has an offset that is not one", 2),
        ("location:\n  latitude: 91\n  longitude: 13\n", "location.latitude", "91 is out of range (-90…90)", 2),
        ("location:\n  latitude: 52\n  longitude: -181\n", "location.longitude", "-181 is out of range (-180…180)", 3),
        ("location:\n  latitude: 52\n", "location", "needs both `latitude` and `longitude`", 2),
        ("location:\n  lattitude: 52\n  longitude: 13\n", "location.lattitude", "did you mean `latitude`?", 2),
        ("schedule:\n  - {from: \"07:00\"}\n", "schedule[0]", "needs `to`", 2),
        ("schedule:\n  - {form: \"07:00\", to: \"08:00\"}\n", "schedule[0].form", "unknown key `form` (allowed: days, from or to)", 2),
        ("schedule:\n  from: \"07:00\"\n", "schedule", "expected a list of windows", 2),
        ("schedule: []\n", "schedule", "is an empty list", 1),
        ("schedule: never\n", "schedule", "`never` is not a schedule", 1),
        ("unset_clock: maybe\n", "unset_clock", "`maybe` is not one of stream or rest", 1),
        ("idle: sleep\n", "idle", "`sleep` is not one of close or keep", 1),
        ("schedul:\n  - {from: \"07:00\", to: \"08:00\"}\n", "schedul", "did you mean `schedule`?", 1),
    ] as [(String, String, String, Int)])
    func badSchedulesNameTheirKeyAndLine(yaml: String, keyPath: String, message: String, line: Int) throws {
        let problems = try Self.problems(yaml + Self.output)
        try #require(problems.count == 1, "\(problems)")
        #expect(problems[0].keyPath == keyPath, "\(problems[0])")
        #expect(problems[0].message.contains(message), "\(problems[0])")
        #expect(problems[0].line == line, "\(problems[0])")
    }

    @Test func anOutputsBadScheduleNamesTheOutput() throws {
        let problems = try Self.problems("outputs:\n  - url: rtmp://h/live/k\n  - record: /r\n    schedule:\n      - {days: Mon, from: sunrise, to: \"12:00\"}\n")
        try #require(problems.count == 1, "\(problems)")
        #expect(problems[0].keyPath == "outputs[1].schedule[0].from")
        #expect(problems[0].line == 5)
        #expect(problems[0].message.contains("needs `location:`"))
    }

    @Test func theSystemZoneServesWhenNoneIsNamed() throws {
        let config = try Self.parse("schedule:\n  - {from: \"07:00\", to: \"08:00\"}\n" + Self.output)
        #expect(config.schedule.stream?.timeZone == ScheduleTimeZone.system())
        #expect(config.schedule.timeZoneName == nil)
    }
}
