import Foundation
import Schedule
import TestSupport
import Testing

/// `camcast check-config` prints each schedule's next starts and stops in local time (issue 44).
/// The clock-time windows are checked against GNU date's own calendar and zone code; the sun
/// windows against the Schedule module evaluated here at the same moment.
@Suite struct ScheduleCheckConfigTests {
    static func checkConfig(_ yaml: String) throws -> (stdout: [String], nowBefore: Date, nowAfter: Date) {
        let dir = try Project.scratchDirectory("schedule-check-config")
        let config = dir.appendingPathComponent("camcast.yaml")
        try yaml.replacingOccurrences(of: "DIR", with: dir.path).write(to: config, atomically: true, encoding: .utf8)
        let before = Date()
        let result = try ProcessRunner.run(Project.camcastBinary.path, ["check-config", config.path], timeout: 60)
        let after = Date()
        #expect(result.status == 0, "\(result.stderr)")
        // The source and the encoder rest between windows now (IdleRestTests): no warning says otherwise.
        #expect(!result.stderr.contains("idle: close"), "\(result.stderr)")
        return (result.stdout.split(separator: "\n").map(String.init), before, after)
    }

    /// `Mon 2026-11-30 07:30 +01:00` for each weekday 07:30 and 09:00 of the next three weeks
    /// after `now`, as `TZ=Europe/Berlin date` writes them; the first six.
    static func expectedOfficeHours(after now: Date) throws -> [String] {
        var lines: [String] = []
        for day in 0..<21 {
            for (time, kind) in [("07:30", "start"), ("09:00", "stop ")] {
                let spec = "\(try date(["-d", "today +\(day) days", "+%Y-%m-%d"])) \(time)"
                let epoch = try Int(date(["-d", spec, "+%s"]))!
                let weekday = try date(["-d", spec, "+%u"])
                guard epoch > Int(now.timeIntervalSince1970), Int(weekday)! <= 5 else { continue }
                lines.append("\(kind) \(try date(["-d", spec, "+%a %Y-%m-%d %H:%M %:z"]))  (\(time))")
            }
        }
        return Array(lines.prefix(6))
    }

    static func date(_ arguments: [String]) throws -> String {
        let result = try ProcessRunner.run("/usr/bin/env", ["TZ=Europe/Berlin", "LC_ALL=C", "date"] + arguments, timeout: 30)
        try #require(result.status == 0, "date \(arguments): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func officeHoursAreListedInLocalTimeAsDateComputesThem() throws {
        let run = try Self.checkConfig("""
            outputs:
              - path: DIR/out.flv
              - record: DIR/rec
            schedule:
              - days: Mon-Fri
                from: "07:30"
                to: "09:00"
            schedule_timezone: Europe/Berlin
            """)
        let header = try #require(run.stdout.firstIndex { $0.hasPrefix("schedule: ") }, "\(run.stdout)")
        #expect(run.stdout[header] == "schedule: Mon-Fri 07:30–09:00 (Europe/Berlin); idle: close")
        let listed = run.stdout.dropFirst(header + 2).prefix(6).map { $0.trimmingCharacters(in: .whitespaces) }
        // Computed for the instants just before and just after the run: one of them is what the
        // binary saw (they differ only if 07:30 or 09:00 passed while it ran).
        let candidates = [try Self.expectedOfficeHours(after: run.nowBefore), try Self.expectedOfficeHours(after: run.nowAfter)]
        #expect(candidates.contains(Array(listed)), "check-config listed:\n\(listed.joined(separator: "\n"))\ndate says:\n\(candidates[0].joined(separator: "\n"))")
        // The file output follows the stream's schedule; the recording records always.
        #expect(run.stdout.contains { $0.hasPrefix("outputs[0] ") && $0.hasSuffix(": the stream's schedule") }, "\(run.stdout)")
        #expect(run.stdout.contains { $0.hasPrefix("outputs[1] record ") && $0.hasSuffix(": always") }, "\(run.stdout)")
    }

    @Test func sunWindowsNameTheSunriseAndSunsetTheyCameFrom() throws {
        let run = try Self.checkConfig("""
            outputs:
              - path: DIR/out.flv
                schedule:
                  - {from: sunrise-30m, to: sunset+15m}
            location: {latitude: 52.52, longitude: 13.41}
            schedule_timezone: Europe/Berlin
            """)
        let header = try #require(run.stdout.firstIndex { $0.hasPrefix("outputs[0] ") }, "\(run.stdout)")
        #expect(run.stdout[header].hasSuffix(": schedule every day sunrise-30m–sunset+15m (Europe/Berlin, at 52.52° N 13.41° E)"), "\(run.stdout[header])")
        let listed = Array(run.stdout.dropFirst(header + 2).prefix(6).map { $0.trimmingCharacters(in: .whitespaces) })
        let schedule = Schedule(
            windows: [ScheduleWindow(from: .solar(.sunrise, offsetSeconds: -1800), to: .solar(.sunset, offsetSeconds: 900))],
            location: GeoLocation(latitude: 52.52, longitude: 13.41), timeZone: try ScheduleTimeZone(identifier: "Europe/Berlin"))
        let expected = [run.nowBefore, run.nowAfter].map { now in
            schedule.transitions(after: WallTime(secondsSince1970: Int64(now.timeIntervalSince1970)), count: 6).map(schedule.localDescription(of:))
        }
        #expect(expected.contains(listed), "\(listed)")
        // Each line's local time is the one its source names: `start Tue 2026-12-01 07:41 +01:00  (sunrise-30m = 07:41)`.
        for line in listed {
            let fields = line.split(separator: " ")
            #expect(fields.count == 8 && line.hasSuffix("= \(fields[3]))"), "\(line)")
            #expect(line.hasPrefix("start") ? line.contains("(sunrise-30m = ") : line.contains("(sunset+15m = "), "\(line)")
        }
    }

    /// Without a schedule check-config says what it always said: nothing about schedules.
    @Test func withoutAScheduleNothingIsAdded() throws {
        let run = try Self.checkConfig("outputs:\n  - path: DIR/out.flv\n")
        #expect(run.stdout.count == 1 && run.stdout[0].contains(": OK — "), "\(run.stdout)")
    }
}
