import FLV
import Foundation
import TestSupport
import Testing

/// `idle: close` (issue 44), with the test pattern against nginx-rtmp and the wall clock moved
/// through a debug build's clock file (as ScheduledOutputTests does): while the only output rests
/// by its schedule, the source and the encoder rest too — no frame is captured, and the daemon's
/// CPU time over the rest (utime + stime from /proc, the kernel's accounting) is under 1 % of a
/// core, the issue's figure for a process that does no work — and they start again early enough
/// that the window's first picture is at nginx within 2.5 s of its start (the issue's promise),
/// keyframe first, decoding clean, the (silent) sound beside it. With `idle: keep` the source
/// runs through the rest.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct IdleRestTests {
    static let streamKey = "iDlE-rEsT-kEy-4417"
    /// The rest measured, in seconds: the issue's 30. At 100 clock ticks a second, 1 % of a core
    /// over it is 30 ticks, well above the counters' resolution (one tick).
    static let restSpanSeconds = 30.0

    /// Writes the clock file so that the daemon's clock shows `epoch` now; returns the offset
    /// written, whole seconds: the daemon's clock shows an instant `t` at `t - offset` here.
    @discardableResult
    static func setClock(_ file: URL, to epoch: Int64) throws -> Int64 {
        let offset = epoch - Int64(Date().timeIntervalSince1970)
        try "\(offset)\n".write(to: file, atomically: true, encoding: .utf8)
        return offset
    }

    /// CPU seconds the process spent so far, user and system (`/proc/PID/stat` fields 14 and 15).
    static func cpuSeconds(_ pid: pid_t) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command name (field 2) is in parentheses and may hold spaces: count after it.
        let fields = try #require(stat.split(separator: ")").last).split(separator: " ")
        let ticks = try #require(Double(fields[11])) + (try #require(Double(fields[12])))
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func framesCaptured(_ http: OperatorHTTP) throws -> Double? {
        let metrics = try http.get("/metrics").body
        return OperatorHTTP.value(of: #"camcast_capture_frames_total{kind="live"}"#, in: metrics)
    }

    /// Whether the FLV file nginx records holds a coded picture (a video tag with AVCPacketType 1,
    /// not only the sequence header): read as it grows.
    static func holdsPicture(_ file: URL) -> Bool {
        guard let data = FileManager.default.contents(atPath: file.path) else { return false }
        var reader = FLVReader()
        let tags = (try? reader.feed(Array(data))) ?? []
        return tags.contains { $0.type == .video && $0.body.count > 1 && $0.body[1] == 1 }
    }

    static func config(_ dir: URL, server: RTMPServer, port: Int, idle: String?) throws -> URL {
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
            schedule_timezone: Europe/Berlin
            \(idle.map { "idle: \($0)" } ?? "# idle: close, the default")
            outputs:
              - url: \(server.url(app: "rec", name: Self.streamKey))
                schedule:
                  - days: Mon-Sun
                    from: "07:30"
                    to: "07:31"
            http:
              listen: 127.0.0.1:\(port)
            status:
              interval_seconds: 5

            """.write(to: config, atomically: true, encoding: .utf8)
        return config
    }

    /// nginx-rtmp and camcast with the test pattern and one RTMP output scheduled 07:30–07:31 every
    /// day in Europe/Berlin, its clock showing `clockShows` (seconds since 1970) at the start.
    struct Run {
        let server: RTMPServer
        let dir: URL
        let clock: URL
        let port: Int
        let http: OperatorHTTP
        let camcast: RunningProcess

        init(_ name: String, idle: String?, clockShows: Int64, server: RTMPServer? = nil) throws {
            self.server = try server ?? RTMPServer()
            dir = try Project.scratchDirectory(name)
            clock = dir.appendingPathComponent("clock-offset")
            port = Int(try freeLoopbackPort())
            http = OperatorHTTP(port: port)
            try IdleRestTests.setClock(clock, to: clockShows)
            let config = try IdleRestTests.config(dir, server: self.server, port: port, idle: idle)
            camcast = try ProcessRunner.start(
                "/usr/bin/env",
                ["CAMCAST_DEBUG_CLOCK_OFFSET_FILE=\(clock.path)", Project.camcastBinary.path, "run", "--config", config.path,
                 "--source", "testpattern", "--size", "320x180", "--fps", "30", "--bitrate", "400", "--keyint-seconds", "2"])
        }

        /// Writes the config again with `idle` (for a reload).
        func rewriteConfig(idle: String?) throws {
            _ = try IdleRestTests.config(dir, server: server, port: port, idle: idle)
        }

        /// SIGTERM, then what camcast did; nginx stops too (its recordings closed).
        func stop() throws -> ProcessResult {
            camcast.signal(SIGTERM)
            let result = try camcast.wait(timeout: 30)
            try server.stop()
            return result
        }
    }

    @Test func theSourceRestsBetweenWindowsAndTheNextWindowsFirstPictureIsOnTime() throws {
        let windowStart = try ScheduledOutputTests.epoch("next Monday 07:30:00")
        // Ten minutes before the window: the rest lasts as long as the test needs.
        let run = try Run("idle-rest", idle: nil, clockShows: windowStart - 600, server: try RTMPServer(environment: ["RTMP_RECORD_UNIQUE": "on"]))
        let (server, clock, http, camcast) = (run.server, run.clock, run.http, run.camcast)
        let resting = try http.wait("/status", timeout: 30) { $0.body.contains("\"resting\"") }
        let health = try http.get("/healthz")
        let statusLine = camcast.waitForLog("status [source resting until", timeout: 15)
        let restingGauge = OperatorHTTP.value(of: "camcast_source_resting", in: try http.get("/metrics").body)
        let framesBefore = try Self.framesCaptured(http)
        let cpuBefore = try Self.cpuSeconds(camcast.pid)
        let spanStart = Date()
        usleep(UInt32(Self.restSpanSeconds * 1_000_000))
        let cpuAfter = try Self.cpuSeconds(camcast.pid)
        let span = Date().timeIntervalSince(spanStart)
        let framesAfter = try Self.framesCaptured(http)

        // The window opens 6 s from now: the source starts at the lead before it, the output at it.
        let offset = try Self.setClock(clock, to: windowStart - 6)
        let windowOpensAt = Date(timeIntervalSince1970: Double(windowStart - offset))
        var firstPictureAt: Date?
        let deadline = windowOpensAt.addingTimeInterval(15)
        while firstPictureAt == nil, Date() < deadline {
            if let recording = try server.uniqueRecordings(Self.streamKey).first, Self.holdsPicture(recording) { firstPictureAt = Date() }
            usleep(20_000)
        }
        usleep(3_000_000)
        let result = try run.stop()

        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains(Self.streamKey))
        #expect(resting.body.contains("until start Mon"), "/status: \(resting.body)")
        #expect(health.status == 200 && health.body.contains("source resting"), "/healthz while resting: \(health.status) \(health.body)")
        #expect(statusLine, "no status line leading with the rest")
        #expect(restingGauge == 1)
        // Resting: the test pattern draws nothing, and the daemon only looks at its schedule.
        let before = try #require(framesBefore), after = try #require(framesAfter)
        #expect(after == before, "the source delivered \(after - before) frames while resting")
        let share = (cpuAfter - cpuBefore) / span
        #expect(share < 0.01, "camcast used \(cpuAfter - cpuBefore) s of CPU in \(span) s of rest (\(share * 100) % of a core)")
        #expect(result.stderr.contains("the source and the encoder rest") && result.stderr.contains("a window opens soon; the source starts"))
        // The issue's promise: the window's first picture at the server within 2.5 s of its start.
        let arrived = try #require(firstPictureAt, "no picture reached nginx within 15 s of the window's start")
        print("idle rest: \(cpuAfter - cpuBefore) s of CPU in \(span) s of rest (\(share * 100) % of a core); "
            + "first picture at nginx \(arrived.timeIntervalSince(windowOpensAt)) s after the window opened")
        #expect(arrived.timeIntervalSince(windowOpensAt) <= 2.5,
                "first picture at nginx \(arrived.timeIntervalSince(windowOpensAt)) s after the window opened at \(windowOpensAt)\n\(result.stderr)")
        let recordings = try server.uniqueRecordings(Self.streamKey)
        try #require(recordings.count == 1, "\(recordings)")
        #expect(try ProbedVideo.decodeErrors(recordings[0]).isEmpty)
        let packets = try ProbedVideo.packets(recordings[0])
        #expect(packets.first?.isKeyframe == true, "the recording starts with \(packets.prefix(3))")
        #expect(packets.count >= 30, "\(packets.count) pictures in 3 s of window")
        // The sound rested with the picture and starts beside it (its packets are stamped with their
        // capture time, so after the rest they are not where the track left off, 40 s earlier).
        let audio = try FFmpegTools.result(
            "ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts", "-of", "csv=p=0", recordings[0].path])
        // The first packet's line carries its side data after a comma (the AudioSpecificConfig).
        let firstAudio = try #require(
            audio.stdout.split(separator: "\n").first.flatMap { Int($0.split(separator: ",").first ?? "") }, "no audio packet: \(audio.stdout)\(audio.stderr)")
        let firstVideo = try #require(packets.first).dtsMilliseconds
        #expect(abs(firstAudio - firstVideo) < 200, "first audio packet at \(firstAudio) ms, first picture at \(firstVideo) ms")
    }

    @Test func withIdleKeepTheSourceRunsWhileTheOutputRests() throws {
        let run = try Run("idle-keep", idle: "keep", clockShows: try ScheduledOutputTests.epoch("next Monday 07:00:00"))
        let http = run.http
        let scheduled = try http.wait("/metrics", timeout: 30) {
            OperatorHTTP.value(of: #"camcast_output_scheduled{output="rtmp-1",kind="rtmp"}"#, in: $0.body) == 1
                && (OperatorHTTP.value(of: #"camcast_capture_frames_total{kind="live"}"#, in: $0.body) ?? 0) > 0
        }
        // Longer than IdleRest's look (0.25 s) by far: with `close` it would have stopped the source.
        usleep(2_000_000)
        let framesBefore = try Self.framesCaptured(http)
        usleep(2_000_000)
        let framesAfter = try Self.framesCaptured(http)
        let status = try http.get("/status")
        let restingGauge = OperatorHTTP.value(of: "camcast_source_resting", in: try http.get("/metrics").body)
        let result = try run.stop()

        #expect(result.status == 0, "\(result.stderr)")
        #expect(scheduled.status == 200, "the output never rested")
        let before = try #require(framesBefore), after = try #require(framesAfter)
        #expect(after > before, "idle: keep, yet no frame in 2 s while the output rested")
        #expect(!status.body.contains("\"resting\""), "\(status.body)")
        #expect(restingGauge == 0)
        #expect(!result.stderr.contains("the source and the encoder rest"))
    }

    /// SIGHUP applies `idle:` at IdleRest's next look: `keep` wakes the resting source, `close`
    /// rests it again; a stop while resting ends cleanly.
    @Test func aReloadChangesIdleAndAStopWhileRestingIsClean() throws {
        let run = try Run("idle-reload", idle: nil, clockShows: try ScheduledOutputTests.epoch("next Monday 07:00:00"))
        let http = run.http
        let rested = try http.wait("/status", timeout: 30) { $0.body.contains("\"resting\"") }
        let framesResting = try Self.framesCaptured(http) ?? 0
        try run.rewriteConfig(idle: "keep")
        run.camcast.signal(SIGHUP)
        let woke = try http.wait("/metrics", timeout: 20) {
            (OperatorHTTP.value(of: #"camcast_capture_frames_total{kind="live"}"#, in: $0.body) ?? 0) > framesResting + 30
        }
        let keeping = try http.get("/status")
        try run.rewriteConfig(idle: nil)
        run.camcast.signal(SIGHUP)
        let restedAgain = try http.wait("/status", timeout: 20) { $0.body.contains("\"resting\"") }
        let result = try run.stop()

        #expect(result.status == 0, "\(result.stderr)")
        #expect(rested.body.contains("\"resting\""), "never rested: \(rested.body)")
        #expect(woke.status == 200 && !keeping.body.contains("\"resting\""), "idle: keep did not wake the source: \(keeping.body)")
        #expect(result.stderr.contains("reload applied: idle close → keep") && result.stderr.contains("reload applied: idle keep → close"))
        #expect(restedAgain.body.contains("\"resting\""), "idle: close did not rest it again: \(restedAgain.body)")
        #expect(result.stderr.components(separatedBy: "the source and the encoder rest").count - 1 == 2, "\(result.stderr)")
        #expect(result.stderr.contains("info stopped"), "\(result.stderr)")
    }
}
