import Foundation
import TestSupport
import Testing

extension Environment {
    static var tmpfsRecordingEnabled: Bool { requireIntegration || (rtmpIntegrationEnabled && geteuid() == 0) }
    static let tmpfsRecordingSkipReason: Comment =
        "needs root (mount -t tmpfs), nginx-rtmp and ffmpeg; CAMCAST_TEST_REQUIRE_INTEGRATION=1 fails instead"
}

/// Recording on a small tmpfs the test mounts (root only): `min_free_bytes` deletes the oldest
/// segments to keep the floor, and a disk filled by someone else pauses the recording with one
/// error line and resumes it when space returns, while the RTMP stream beside it goes on whole.
@Suite(.serialized, .enabled(if: Environment.tmpfsRecordingEnabled, Environment.tmpfsRecordingSkipReason))
struct RecordingDiskTests {
    /// A tmpfs of `megabytes` at a fresh scratch folder; unmounted by `unmount`.
    static func mountTmpfs(_ name: String, megabytes: Int) throws -> URL {
        let dir = try Project.scratchDirectory(name).appendingPathComponent("fs")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let result = try ProcessRunner.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", dir.path], timeout: 10)
        guard result.status == 0 else { throw HarnessError("mount tmpfs: \(result.stderr)") }
        return dir
    }

    static func unmount(_ dir: URL) {
        _ = try? ProcessRunner.run("/bin/umount", ["-l", dir.path], timeout: 10)
    }

    static func freeBytes(_ dir: URL) -> Int {
        var info = statvfs()
        guard statvfs(dir.path, &info) == 0 else { return 0 }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    /// One series of the recording output (`record-1`) in a /metrics text.
    static func series(_ name: String, state: String? = nil) -> String {
        #"\#(name){output="record-1",kind="record""# + (state.map { #",state="\#($0)""# } ?? "") + "}"
    }

    static func config(_ dir: URL, _ body: String) throws -> URL {
        let file = dir.deletingLastPathComponent().appendingPathComponent("camcast.yaml")
        try body.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func minFreeBytesDeletesTheOldestToKeepTheFloor() throws {
        let fs = try Self.mountTmpfs("record-minfree", megabytes: 8)
        defer { Self.unmount(fs) }
        let floor = 5 << 20
        let config = try Self.config(fs, """
            outputs:
              - record: \(fs.appendingPathComponent("rec").path)
                segment_seconds: 1
                min_free_bytes: 5M
            """)
        // 4 Mbit/s: about 6 MB in 12 s, twice the 3 MB above the floor.
        let result = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--config", config.path, "--source", "testpattern", "--size", "640x360", "--fps", "30",
             "--keyint-seconds", "1", "--bitrate", "4000", "--duration", "12"],
            timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("retention deleted old segments"), "\(result.stderr)")
        #expect(!result.stderr.contains("recording paused"), "\(result.stderr)")
        #expect(Self.freeBytes(fs) >= floor, "\(Self.freeBytes(fs)) bytes free")
        let segments = RecordingProbe.segments(in: fs.appendingPathComponent("rec"))
        #expect(!segments.isEmpty)
        for segment in segments { #expect(try ProbedVideo.decodeErrors(segment) == "", "\(segment.lastPathComponent)") }
    }

    @Test func aFullDiskPausesTheRecordingAndItResumesWithoutTouchingRTMP() throws {
        for tool in ["curl", "promtool"] { try OperatorViewTests.requireTool(tool) }
        let fs = try Self.mountTmpfs("record-full", megabytes: 8)
        defer { Self.unmount(fs) }
        let server = try RTMPServer()
        defer { try? server.stop() }
        let config = try Self.config(fs, """
            outputs:
              - record: \(fs.appendingPathComponent("rec").path)
                segment_seconds: 2
              - url: \(server.url(app: "rec", name: "diskfull"))
            """)
        let port = Int(try freeLoopbackPort())
        let camcast = try Daemon.start(
            ["run", "--config", config.path, "--source", "testpattern", "--size", "640x360", "--fps", "30",
             "--keyint-seconds", "1", "--bitrate", "2000"],
            environment: ["CAMCAST_HTTP_LISTEN": "127.0.0.1:\(port)"])
        defer { camcast.signal(SIGKILL) }
        #expect(Daemon.waitForLog(camcast, "recording segment", timeout: 30), "\(camcast.stderrSoFar)")
        let http = OperatorHTTP(port: port)
        let writing = try http.wait("/metrics", timeout: 20) { (OperatorHTTP.value(of: Self.series("camcast_output_sent_bytes_total"), in: $0.body) ?? 0) > 0 }
        #expect(OperatorHTTP.value(of: Self.series("camcast_output_up"), in: writing.body) == 1, "\(writing.body)")
        #expect(OperatorHTTP.value(of: Self.series("camcast_recording_paused"), in: writing.body) == 0, "\(writing.body)")
        #expect((OperatorHTTP.value(of: Self.series("camcast_recording_free_bytes"), in: writing.body) ?? 0) > 0, "\(writing.body)")
        #expect((OperatorHTTP.value(of: Self.series("camcast_recording_segment_start_time_seconds"), in: writing.body) ?? 0) > 1e9)
        // Someone else fills the disk, all but 128 kB.
        let filler = fs.appendingPathComponent("filler")
        let room = Self.freeBytes(fs) - 128 * 1024
        let fill = try ProcessRunner.run(
            "/bin/dd", ["if=/dev/zero", "of=\(filler.path)", "bs=64k", "count=\(max(1, room / 65536))"], timeout: 30)
        #expect(fill.status == 0, "\(fill.stderr)")
        #expect(Daemon.waitForLog(camcast, "recording paused", timeout: 30), "\(camcast.stderrSoFar)")
        // /healthz, /metrics and /status say so, while the RTMP output streams on.
        let unhealthy = try http.wait("/healthz", timeout: 10) { $0.status == 503 }
        #expect(unhealthy.body.contains("record-1 down") && unhealthy.body.contains("No space left on device"), "\(unhealthy.body)")
        #expect(!unhealthy.body.contains("rtmp-1"), "\(unhealthy.body)")
        let paused = try http.get("/metrics")
        #expect(OperatorHTTP.value(of: Self.series("camcast_recording_paused"), in: paused.body) == 1, "\(paused.body)")
        #expect(OperatorHTTP.value(of: Self.series("camcast_output_state", state: "paused"), in: paused.body) == 1, "\(paused.body)")
        #expect(OperatorHTTP.value(of: #"camcast_output_up{output="rtmp-1",kind="rtmp"}"#, in: paused.body) == 1, "\(paused.body)")
        let scrape = fs.deletingLastPathComponent().appendingPathComponent("metrics.txt")
        try paused.body.write(to: scrape, atomically: true, encoding: .utf8)
        if Environment.hasExecutable("promtool") {
            let lint = try ProcessRunner.run("/bin/sh", ["-c", "promtool check metrics < '\(scrape.path)'"])
            #expect(lint.status == 0, "promtool check metrics: \(lint.stdout) \(lint.stderr)")
        }
        let status = try http.get("/status")
        #expect(status.body.contains(#""paused" : true"#) && status.body.contains(#""pauseReason""#), "\(status.body)")
        let pausedSegments = camcast.stderrSoFar.components(separatedBy: "recording segment").count - 1
        try FileManager.default.removeItem(at: filler)
        #expect(Daemon.waitForLog(camcast, "recording resumes", timeout: 30), "\(camcast.stderrSoFar)")
        let resumed = try http.wait("/healthz", timeout: 10) { $0.status == 200 }
        #expect(resumed.status == 200, "\(resumed.body)")
        #expect(OperatorHTTP.value(of: Self.series("camcast_recording_paused"), in: try http.get("/metrics").body) == 0)
        #expect(Daemon.waitForLog(camcast, "recording segment", occurrences: pausedSegments + 2, timeout: 30))
        camcast.signal(SIGTERM)
        let result = try camcast.wait(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.filter { $0.contains(" error ") }.count == 1, "one error line: \(lines.filter { $0.contains(" error ") })")
        for segment in RecordingProbe.segments(in: fs.appendingPathComponent("rec")) {
            let errors = try ProbedVideo.decodeErrors(segment)
            #expect(errors == "", "\(segment.lastPathComponent): \(errors)")
        }
        // The RTMP stream went on: the output dropped, discarded and reconnected nothing, and
        // nginx's recording holds every picture camcast encoded (a loaded machine may skip a
        // frame at the source, which every output shares, so pictures are counted, not gaps).
        let stopLine = try #require(lines.last { $0.contains(" stopped ") }.map(String.init), "\(result.stderr)")
        func field(_ name: String) -> Int? {
            stopLine.split(separator: " ").first { $0.hasPrefix("\(name)=") }.flatMap { Int($0.dropFirst(name.count + 1)) }
        }
        #expect(field("dropped") == 0 && field("discarded") == 0 && field("reconnects") == 0, "\(stopLine)")
        try server.stop()
        let packets = try ProbedVideo.packets(server.recording("diskfull"))
        let frames = try #require(field("frames"), "\(stopLine)")
        #expect(packets.count > 90, "\(packets.count) packets at nginx")
        #expect(abs(packets.count - frames) <= 2, "nginx has \(packets.count) pictures of \(frames)")
    }
}
