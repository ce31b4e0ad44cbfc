import Foundation
import TestSupport
import Testing

/// Schedules at run time (issue 44), against nginx-rtmp, with the wall clock moved through a debug
/// build's clock file (`CAMCAST_DEBUG_CLOCK_OFFSET_FILE`) as NTP's first sync or a manual change
/// would move it: a clock at 1970 with `unset_clock: rest` keeps the output resting; stepped to a
/// Monday 07:29:57 in Europe/Berlin it still rests, and the window 07:30–07:31 publishes it
/// within 2.5 s of 07:30, keyframe first; stepped past 07:31 it ends cleanly (nginx's recording
/// closed, ffprobe clean), while a recording that runs always keeps every picture throughout.
/// What a resting output looks like: /healthz 200, `camcast_output_scheduled` 1, `camcast_output_up` 0.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct ScheduledOutputTests {
    static let streamKey = "sChEdUlE-kEy-2407"

    /// `date -d` in Europe/Berlin (GNU date reads the zone rules itself; nobody here wrote it).
    static func epoch(_ text: String) throws -> Int64 {
        let result = try ProcessRunner.run("/usr/bin/env", ["TZ=Europe/Berlin", "date", "-d", text, "+%s"], timeout: 30)
        return try #require(Int64(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "date -d \(text): \(result.stderr)")
    }

    /// Sets the daemon's clock to show `epoch` now.
    static func setClock(_ file: URL, to epoch: Int64) throws {
        try "\(epoch - Int64(Date().timeIntervalSince1970))\n".write(to: file, atomically: true, encoding: .utf8)
    }

    /// The time of the first log line holding `text` (the log's own ISO 8601 stamps, UTC).
    static func loggedAt(_ text: String, in log: String) -> Date? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains(text) }), let stamp = line.split(separator: " ").first else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: String(stamp))
    }

    @Test func aWindowOpensOnTimeAndClosesCleanlyWhileTheRecordingRunsThrough() throws {
        let server = try RTMPServer(environment: ["RTMP_RECORD_UNIQUE": "on"])
        let dir = try Project.scratchDirectory("scheduled-output")
        let clock = dir.appendingPathComponent("clock-offset")
        let port = Int(try freeLoopbackPort())
        let http = OperatorHTTP(port: port)
        try Self.setClock(clock, to: 1000)  // 1970: a box without a real-time clock before NTP
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
            schedule_timezone: Europe/Berlin
            unset_clock: rest
            idle: keep
            outputs:
              - url: \(server.url(app: "rec", name: Self.streamKey))
                schedule:
                  - days: Mon-Fri
                    from: "07:30"
                    to: "07:31"
              - path: "\(dir.appendingPathComponent("reference.flv").path)"
              - record: "\(dir.appendingPathComponent("always").path)"
                segment_seconds: 600
            http:
              listen: 127.0.0.1:\(port)

            """.write(to: config, atomically: true, encoding: .utf8)
        let camcast = try ProcessRunner.start(
            "/usr/bin/env",
            ["CAMCAST_DEBUG_CLOCK_OFFSET_FILE=\(clock.path)", Project.camcastBinary.path, "run", "--config", config.path,
             "--source", "testpattern", "--size", "320x180", "--fps", "30", "--bitrate", "400", "--keyint-seconds", "2"])
        // The output rests from its open, before the pipeline is attached (and /healthz says "pipeline
        // not running" until it is): both, before the health is read.
        let resting1970 = try http.wait("/metrics", timeout: 20) {
            OperatorHTTP.value(of: #"camcast_output_scheduled{output="rtmp-1",kind="rtmp"}"#, in: $0.body) == 1
                && OperatorHTTP.value(of: "camcast_pipeline_running", in: $0.body) == 1
        }
        let health = try http.get("/healthz")

        let monday = try Self.epoch("next Monday 07:29:57")
        try Self.setClock(clock, to: monday)
        let windowOpensAt = Date().addingTimeInterval(3)
        usleep(1_500_000)
        let beforeWindow = try http.get("/metrics").body
        let published = camcast.waitForLog("RTMP publishing", timeout: 15)
        let openStatus = try http.get("/status").body
        usleep(5_000_000)
        try Self.setClock(clock, to: monday + 65)  // 07:31:02: the window is over
        let closed = camcast.waitForLog("schedule: the window closed", timeout: 10)
        usleep(2_000_000)
        let restingAgain = try http.get("/metrics").body
        let restingStatus = try http.get("/status").body
        camcast.signal(SIGTERM)
        let result = try camcast.wait(timeout: 30)
        try server.stop()

        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains(Self.streamKey))
        #expect(OperatorHTTP.value(of: #"camcast_output_up{output="rtmp-1",kind="rtmp"}"#, in: resting1970.body) == 0, "\(resting1970.body)")
        #expect(health.status == 200, "/healthz while resting: \(health.status) \(health.body)")
        #expect(OperatorHTTP.value(of: #"camcast_output_scheduled{output="rtmp-1",kind="rtmp"}"#, in: beforeWindow) == 1, "opened before 07:30")
        #expect(published && closed, "\(result.stderr)")
        // The issue's promise: the first publish within 2.5 s of the window's start.
        let publishedAt = try #require(Self.loggedAt("RTMP publishing", in: result.stderr))
        #expect(publishedAt.timeIntervalSince(windowOpensAt) <= 2.5 && publishedAt > windowOpensAt.addingTimeInterval(-1.5),
                "published \(publishedAt.timeIntervalSince(windowOpensAt)) s after the window opened")
        #expect(OperatorHTTP.value(of: #"camcast_output_scheduled{output="rtmp-1",kind="rtmp"}"#, in: restingAgain) == 1)
        // /status says when the open window ends, and when resting, when the next one opens (Monday's
        // is over: Tuesday's 07:30).
        let schedule = { (body: String) in Self.outputs(in: body).first { $0["name"] as? String == "rtmp-1" }?["schedule"] as? String }
        let open = try #require(schedule(openStatus), "no schedule in /status: \(openStatus)")
        #expect(open.hasPrefix("open until stop") && open.contains(" 07:31 +0"), "\(open)")
        let rests = try #require(schedule(restingStatus), "no schedule in /status: \(restingStatus)")
        #expect(rests.hasPrefix("rests until start Tue"), "\(rests)")
        #expect(rests.contains(" 07:30 +0"), "\(rests)")
        let unscheduled = Self.outputs(in: openStatus).filter { $0["name"] as? String != "rtmp-1" }
        #expect(unscheduled.count == 2 && unscheduled.allSatisfy { $0["schedule"] == nil }, "outputs without a schedule: \(unscheduled)")

        // One publish, closed by its end (ffprobe reads it whole), keyframe first, every picture
        // from its first on, as the reference that ran throughout has them.
        let recordings = try server.uniqueRecordings(Self.streamKey)
        try #require(recordings.count == 1, "\(recordings)")
        #expect(try ProbedVideo.decodeErrors(recordings[0]).isEmpty)
        let reference = try HashedPackets(dir.appendingPathComponent("reference.flv"))
        let window = try reference.locate(HashedPackets(recordings[0]))
        #expect(window.problems.isEmpty && window.startsWithKeyframe, "\(window.problems)")
        #expect(window.last < reference.packets.count - 30, "the output did not stop at the window's end")
        // The recording that runs always holds as many pictures as the reference, across the closing.
        let folder = dir.appendingPathComponent("always")
        let segments = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".mp4") }.map { folder.appendingPathComponent($0) }
        try #require(!segments.isEmpty, "no segment in \(folder.path)")
        let recorded = try segments.map { try ProbedVideo.packets($0).count }.reduce(0, +)
        #expect(recorded == reference.packets.count, "the always recording has \(recorded) of \(reference.packets.count) pictures")
    }

    /// A window across midnight, end to end (issue 44): Friday 23:59–00:01 in Europe/Berlin. The
    /// clock stepped to Friday 23:58:57 rests it; it opens at 23:59 (published within 2.5 s,
    /// keyframe first) and stays open through midnight into Saturday — a day the window's `days`
    /// do not name, but the window started on Friday — and closes at Saturday 00:01 cleanly: one
    /// publish, one recording, no close or reopen at 00:00.
    @Test func aWindowAcrossMidnightStaysOpenIntoTheNextDayAndClosesOnce() throws {
        let server = try RTMPServer(environment: ["RTMP_RECORD_UNIQUE": "on"])
        let dir = try Project.scratchDirectory("scheduled-midnight")
        let clock = dir.appendingPathComponent("clock-offset")
        let key = "mIdNiGhT-kEy-2359"
        let friday = try Self.epoch("next Friday 23:58:57")
        try Self.setClock(clock, to: friday)
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
            schedule_timezone: Europe/Berlin
            idle: keep
            outputs:
              - url: \(server.url(app: "rec", name: key))
                name: night
                schedule:
                  - days: Fri
                    from: "23:59"
                    to: "00:01"
              - path: "\(dir.appendingPathComponent("reference.flv").path)"

            """.write(to: config, atomically: true, encoding: .utf8)
        let camcast = try ProcessRunner.start(
            "/usr/bin/env",
            ["CAMCAST_DEBUG_CLOCK_OFFSET_FILE=\(clock.path)", Project.camcastBinary.path, "run", "--config", config.path,
             "--source", "testpattern", "--size", "320x180", "--fps", "30", "--bitrate", "300", "--keyint-seconds", "1"])
        defer { camcast.signal(SIGKILL) }
        let windowOpensAt = Date().addingTimeInterval(3)
        let published = camcast.waitForLog("RTMP publishing", timeout: 15)
        // Past midnight: Saturday 00:00:57, the window still open; it ends at 00:01:00.
        usleep(2_000_000)
        try Self.setClock(clock, to: friday + 120)
        usleep(1_500_000)
        let openedSoFar = camcast.logLines(containing: "schedule: a window opened").count
        let closedBeforeItsEnd = camcast.logLines(containing: "schedule: the window closed").count
        let closed = camcast.waitForLog("schedule: the window closed", timeout: 10)
        usleep(1_500_000)
        camcast.signal(SIGTERM)
        let result = try camcast.wait(timeout: 30)
        try server.stop()

        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains(key))
        #expect(published && closed, "\(result.stderr)")
        let publishedAt = try #require(Self.loggedAt("RTMP publishing", in: result.stderr))
        #expect(publishedAt.timeIntervalSince(windowOpensAt) <= 2.5 && publishedAt > windowOpensAt.addingTimeInterval(-1.5),
                "published \(publishedAt.timeIntervalSince(windowOpensAt)) s after the window opened")
        #expect(openedSoFar == 1 && closedBeforeItsEnd == 0, "midnight closed or reopened the window\n\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "schedule: a window opened").count - 1 == 1, "\(result.stderr)")
        let recordings = try server.uniqueRecordings(key)
        try #require(recordings.count == 1, "one publish across midnight, not \(recordings.count)")
        #expect(try ProbedVideo.decodeErrors(recordings[0]).isEmpty)
        let reference = try HashedPackets(dir.appendingPathComponent("reference.flv"))
        let window = try reference.locate(HashedPackets(recordings[0]))
        #expect(window.problems.isEmpty && window.startsWithKeyframe, "\(window.problems)")
        #expect(window.last < reference.packets.count - 30, "the output did not stop at the window's end")
    }

    /// /status's outputs, as JSON objects.
    static func outputs(in status: String) -> [[String: Any]] {
        let json = try? JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any]
        return json?["outputs"] as? [[String: Any]] ?? []
    }

    /// `date -d` in UTC, for instants around a zone's change (nobody here wrote GNU date either).
    static func utc(_ text: String) throws -> Int64 {
        let result = try ProcessRunner.run("/usr/bin/env", ["TZ=UTC", "date", "-d", text, "+%s"], timeout: 30)
        return try #require(Int64(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "date -d \(text): \(result.stderr)")
    }

    /// The spring-forward and fall-back nights of 2027 in Europe/Berlin, end to end (issue 44),
    /// each window opened and closed once. `spring` (Sundays 01:59–03:00) opens at 01:59 CET on 28
    /// March and closes one minute later, when 02:00 CET becomes 03:00 CEST; `fall` (Sundays
    /// 02:30–02:45) has no time on that night (its quarter-hour falls in the skipped hour) and
    /// stays resting. On 31 October, 02:30–02:45 CEST opens and closes `fall`, and the same wall
    /// times an hour later (02:30 CET, the hour repeated) do not open it again; `spring` is open
    /// throughout (01:59 CEST to 03:00 CET). Between steps of the clock the wall clock runs in
    /// real time, so each change happens where the zone's rules put it, not where the test steps.
    @Test func theDSTNightsInBerlinOpenAndCloseEachWindowOnce() throws {
        let server = try RTMPServer(environment: ["RTMP_RECORD_UNIQUE": "on"])
        let dir = try Project.scratchDirectory("scheduled-dst")
        let clock = dir.appendingPathComponent("clock-offset")
        let port = Int(try freeLoopbackPort())
        let http = OperatorHTTP(port: port)
        let (springKey, fallKey) = ("sPrInG-kEy-2027", "fAlL-kEy-2027")
        try Self.setClock(clock, to: try Self.utc("2027-03-28 00:50:00"))  // 01:50 CET
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
            schedule_timezone: Europe/Berlin
            idle: keep
            outputs:
              - url: \(server.url(app: "rec", name: springKey))
                name: spring
                schedule:
                  - days: Sun
                    from: "01:59"
                    to: "03:00"
              - url: \(server.url(app: "rec", name: fallKey))
                name: fall
                schedule:
                  - days: Sun
                    from: "02:30"
                    to: "02:45"
            http:
              listen: 127.0.0.1:\(port)

            """.write(to: config, atomically: true, encoding: .utf8)
        let camcast = try ProcessRunner.start(
            "/usr/bin/env",
            ["CAMCAST_DEBUG_CLOCK_OFFSET_FILE=\(clock.path)", Project.camcastBinary.path, "run", "--config", config.path,
             "--source", "testpattern", "--size", "320x180", "--fps", "30", "--bitrate", "300", "--keyint-seconds", "1"])
        func lines(_ event: String, _ output: String) -> Int {
            camcast.logLines(containing: event == "opened" ? "schedule: a window opened" : "schedule: the window closed").filter { $0.contains("name=\(output) ") }.count
        }
        func waitFor(_ event: String, _ output: String, count: Int) -> Bool {
            let deadline = Date().addingTimeInterval(20)
            while lines(event, output) < count && Date() < deadline { usleep(50_000) }
            return lines(event, output) >= count
        }
        let resting = try http.wait("/metrics", timeout: 20) {
            OperatorHTTP.value(of: #"camcast_output_scheduled{output="fall",kind="rtmp"}"#, in: $0.body) == 1
        }
        // Spring: opened at 01:59 CET, closed by the zone's change at 01:00 UTC, a minute of wall
        // time later (the clock is stepped within the window to spare the test that minute).
        try Self.setClock(clock, to: try Self.utc("2027-03-28 00:58:58"))
        let springOpened = waitFor("opened", "spring", count: 1)
        usleep(1_500_000)
        try Self.setClock(clock, to: try Self.utc("2027-03-28 00:59:57"))
        let springClosed = waitFor("closed", "spring", count: 1)
        usleep(2_000_000)
        let afterSpring = try http.get("/metrics").body
        let fallOnTheSpringNight = lines("opened", "fall")

        // Fall: 02:29:57 CEST; `fall` opens at 02:30 CEST, closes at 02:45 CEST, and not again at
        // 02:30 CET. `spring` is in its window all along.
        try Self.setClock(clock, to: try Self.utc("2027-10-31 00:29:57"))
        let fallOpened = waitFor("opened", "fall", count: 1)
        usleep(1_500_000)
        try Self.setClock(clock, to: try Self.utc("2027-10-31 00:44:57"))
        let fallClosed = waitFor("closed", "fall", count: 1)
        try Self.setClock(clock, to: try Self.utc("2027-10-31 01:29:57"))  // 02:29:57 CET
        usleep(6_000_000)  // to 02:30:03 CET and beyond: the repeated 02:30 passes
        let afterFall = try http.get("/metrics").body
        camcast.signal(SIGTERM)
        let result = try camcast.wait(timeout: 30)
        try server.stop()

        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains(springKey) && !result.stderr.contains(fallKey))
        #expect(resting.status == 200)
        #expect(springOpened && springClosed, "\(result.stderr)")
        #expect(fallOnTheSpringNight == 0, "`fall` opened on the spring-forward night\n\(result.stderr)")
        #expect(OperatorHTTP.value(of: #"camcast_output_scheduled{output="spring",kind="rtmp"}"#, in: afterSpring) == 1)
        #expect(fallOpened && fallClosed, "\(result.stderr)")
        #expect(OperatorHTTP.value(of: #"camcast_output_scheduled{output="fall",kind="rtmp"}"#, in: afterFall) == 1, "`fall` did not rest at 02:30 CET")
        #expect(OperatorHTTP.value(of: #"camcast_output_up{output="spring",kind="rtmp"}"#, in: afterFall) == 1, "`spring` is not open in the fall-back night")
        // Once each: `spring` on each night, `fall` on the second only.
        #expect(lines("opened", "spring") == 2 && lines("closed", "spring") == 1, "\(result.stderr)")
        #expect(lines("opened", "fall") == 1 && lines("closed", "fall") == 1, "\(result.stderr)")
        // nginx-rtmp recorded a publish for each opening, each closed by its end (ffprobe clean).
        let spring = try server.uniqueRecordings(springKey), fall = try server.uniqueRecordings(fallKey)
        #expect(spring.count == 2 && fall.count == 1, "\(spring) \(fall)")
        for recording in spring + fall {
            #expect(try ProbedVideo.decodeErrors(recording).isEmpty, "\(recording.path)")
        }
    }
}
