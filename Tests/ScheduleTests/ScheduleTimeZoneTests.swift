import Foundation
import Schedule
import Testing

/// The TZif reader against GNU date (glibc's own zone code), instant by instant.
@Suite struct ScheduleTimeZoneTests {
    /// Both hemispheres, half-hour and 45-minute zones, a zone whose rule changed (Santiago), and
    /// instants past 2037, where Debian's files end and the POSIX footer rule takes over.
    @Test(arguments: ["Europe/Berlin", "Australia/Melbourne", "America/New_York", "Asia/Kolkata", "Pacific/Chatham", "America/Santiago", "UTC"])
    func offsetsAgreeWithGNUDate(_ name: String) throws {
        let zone = try ScheduleTimeZone(identifier: name)
        // Every 9 days and 7 hours from 1990 to 2060: about 2 800 instants in all seasons.
        let instants = stride(from: Int64(631_152_000), to: 2_871_763_200, by: 9 * 86_400 + 7 * 3600).map { WallTime(secondsSince1970: $0) }
        let expected = try Self.gnuDateOffsets(instants, zone: name)
        try #require(expected.count == instants.count)
        let mismatches = zip(instants, expected).filter { zone.offset(at: $0) != $1 }
        #expect(mismatches.isEmpty, "\(name): first mismatches \(mismatches.prefix(3).map { "\($0.0): \(zone.offset(at: $0.0)) s, date says \($0.1) s" })")
    }

    @Test func unknownZonesAreRefusedInWords() {
        #expect(throws: ScheduleTimeZone.LoadError.unknown("Europe/Berlln")) { try ScheduleTimeZone(identifier: "Europe/Berlln") }
        #expect(throws: ScheduleTimeZone.LoadError.unknown("../../etc/passwd")) { try ScheduleTimeZone(identifier: "../../etc/passwd") }
        #expect(throws: ScheduleTimeZone.LoadError.unknown("")) { try ScheduleTimeZone(identifier: "") }
        // A directory of zones is not a zone.
        #expect(throws: ScheduleTimeZone.LoadError.self) { try ScheduleTimeZone(identifier: "Europe") }
    }

    @Test func localTimesInTheGapAndTheOverlap() throws {
        let berlin = try ScheduleTimeZone(identifier: "Europe/Berlin")
        let spring = CivilDate(year: 2026, month: 3, day: 29)
        #expect(berlin.instant(on: spring, secondsOfDay: 2 * 3600 + 1800) == utc(2026, 3, 29, 1))
        #expect(berlin.instant(on: spring, secondsOfDay: 2 * 3600) == utc(2026, 3, 29, 1))
        #expect(berlin.instant(on: spring, secondsOfDay: 3 * 3600) == utc(2026, 3, 29, 1))
        #expect(berlin.instant(on: spring, secondsOfDay: 1 * 3600 + 3599) == utc(2026, 3, 29, 0, 59).adding(seconds: 59))
        let autumn = CivilDate(year: 2026, month: 10, day: 25)
        #expect(berlin.instant(on: autumn, secondsOfDay: 2 * 3600 + 1800) == utc(2026, 10, 25, 0, 30))
        #expect(berlin.instant(on: autumn, secondsOfDay: 3 * 3600) == utc(2026, 10, 25, 2))
        // Melbourne's spring forward is in October: 02:00 AEST → 03:00 AEDT on 4 October 2026.
        let melbourne = try ScheduleTimeZone(identifier: "Australia/Melbourne")
        #expect(melbourne.instant(on: CivilDate(year: 2026, month: 10, day: 4), secondsOfDay: 2 * 3600 + 1800) == utc(2026, 10, 3, 16))
    }

    /// `TZ=zone date -f - +%z` over `@seconds` lines, in seconds east of UTC.
    static func gnuDateOffsets(_ instants: [WallTime], zone: String) throws -> [Int] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/date")
        process.arguments = ["-f", "-", "+%z"]
        process.environment = ["TZ": zone, "LC_ALL": "C"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let lines = instants.map { "@\($0.secondsSince1970)\n" }.joined()
        // Written from another thread: date writes as it reads, and a full pipe would stop both.
        let writer = Thread {
            input.fileHandleForWriting.write(Data(lines.utf8))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map { text in
            let sign = text.hasPrefix("-") ? -1 : 1
            let digits = text.dropFirst()
            return sign * (Int(digits.prefix(2))! * 3600 + Int(digits.suffix(2))! * 60)
        }
    }
}
