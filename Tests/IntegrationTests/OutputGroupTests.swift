import Foundation
import TestSupport
import Testing

/// An output with `urls:` (issue 43) against two real nginx-rtmp servers: failover to the backup
/// and back, and dual ingest through one leg's outage. What reached each server is judged from
/// nginx's own recordings with ffprobe, frame by frame against a reference: an FLV file output of
/// the same run, which holds every encoded picture. Legs carry the very packets the encoder made,
/// so a picture is found in a recording by its bytes (ffprobe's MD5 of each packet).
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct OutputGroupTests {
    static let streamKey = "gRoUp-kEy-4711"
    static let keyframeSeconds = 2
    /// How long a leg's server stays down: issue 43's 40 s, long enough that the group's probes of
    /// the dead leg back off past their first steps, and that a second-long outage's luck (a
    /// reconnect on the first try) does not decide the result.
    static let outageSeconds = 40.0

    /// Sleeps until `outageSeconds` after `start`.
    static func sleepOutOfTheOutage(since start: Date) {
        usleep(UInt32(max(0, outageSeconds - Date().timeIntervalSince(start)) * 1_000_000))
    }

    @Test func failoverMovesToTheBackupAndReturnsToThePrimaryWithoutAGap() throws {
        let primary = try RTMPServer(environment: ["RTMP_RECORD_UNIQUE": "on"])
        let backup = try RTMPServer(environment: ["RTMP_RECORD_UNIQUE": "on"])
        let failoverAfter = 2
        let run = try GroupRun(
            legs: [primary, backup], mode: "failover",
            extra: "    failover_after_seconds: \(failoverAfter)\n    return_after_seconds: 4\n")
        try #require(run.camcast.waitForLog("RTMP publishing", timeout: 20), "never published: \(run.camcast.stderrSoFar)")
        usleep(4_000_000)

        try primary.kill()
        let killed = Date()
        // The backup's recording holds a picture once it is past FLV's header and the sequence
        // header (a 320x180 keyframe alone is several kB).
        let backupStreams = RecordingProbe.waitUntil(timeout: 30) { (try? backup.uniqueRecordings(Self.streamKey).first.map(RecordingProbe.size)) ?? 0 > 4000 }
        let takeover = Date().timeIntervalSince(killed)
        // The group's watch notes a leg's publish at its next look (every 0.1 s).
        let health = try run.http.wait("/healthz", timeout: 5) { $0.status == 200 }
        let metrics = try run.http.get("/metrics").body
        Self.sleepOutOfTheOutage(since: killed)
        try primary.start()
        // No bound on the return: the probe's backoff after 40 s down decides it, and only that the
        // primary is taken back once it stays up return_after_seconds is promised.
        let returned = run.camcast.waitForLog("failover: leg 1 carries the stream", timeout: 90)
        usleep(3_000_000)
        let result = try run.stop()
        try primary.stop()
        try backup.stop()

        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains(Self.streamKey) && !health.body.contains(Self.streamKey) && !metrics.contains(Self.streamKey))
        // The issue's promise: pictures at the backup within failover_after_seconds + 2.5 s of the loss.
        #expect(backupStreams && takeover <= Double(failoverAfter) + 2.5, "the backup had pictures \(takeover) s after the kill")
        #expect(health.status == 200 && health.body.contains("leg 2"), "/healthz on the backup: \(health.status) \(health.body)")
        #expect(OperatorHTTP.value(of: #"camcast_output_up{output="failover-1",kind="rtmp",leg="2"}"#, in: metrics) == 1, "\(metrics)")
        #expect(OperatorHTTP.value(of: #"camcast_output_up{output="failover-1",kind="failover"}"#, in: metrics) == 1)
        #expect(OperatorHTTP.value(of: #"camcast_output_active_leg{output="failover-1",kind="failover"}"#, in: metrics) == 2)
        #expect(returned, "never went back to the primary: \(result.stderr)")

        let reference = try HashedPackets(run.reference)
        let primaryFiles = try primary.uniqueRecordings(Self.streamKey)
        let backupFiles = try backup.uniqueRecordings(Self.streamKey)
        try #require(primaryFiles.count == 2 && backupFiles.count == 1, "recordings: \(primaryFiles) \(backupFiles)")
        let before = try reference.locate(HashedPackets(primaryFiles[0]))
        let during = try reference.locate(HashedPackets(backupFiles[0]))
        let after = try reference.locate(HashedPackets(primaryFiles[1]))
        for placed in [before, during, after] { #expect(placed.problems.isEmpty, "\(placed.problems)") }
        // Viewers lose at most what failed plus one GOP: the longest run of encoded pictures in
        // none of the recordings, in the reference's own milliseconds.
        let hole = reference.longestMissingMilliseconds(covered: [before, during, after])
        print("failover after \(Self.outageSeconds) s down: backup pictures \(takeover) s after the kill, longest hole \(hole) ms, "
            + "primary again from #\(after.first), backup up to #\(during.last) of \(reference.packets.count)")
        #expect(hole <= (failoverAfter + Self.keyframeSeconds) * 1000, "\(hole) ms of pictures reached no server")
        // The return is make-before-break: the primary starts again at a keyframe no later than
        // the picture after the backup's last, and the backup ended before the run did.
        #expect(after.startsWithKeyframe)
        #expect(after.first <= during.last + 1, "primary again from #\(after.first), backup up to #\(during.last)")
        #expect(during.last < after.last, "the backup was not closed")
        for file in backupFiles + primaryFiles.suffix(1) {
            #expect(try ProbedVideo.decodeErrors(file).isEmpty, "\(file.lastPathComponent) does not decode cleanly")
        }
    }

    @Test func dualIngestKeepsEveryFrameOnOneLegThroughTheOthersOutage() throws {
        let first = try RTMPServer(environment: ["RTMP_RECORD_UNIQUE": "on"])
        let second = try RTMPServer(environment: ["RTMP_RECORD_UNIQUE": "on"])
        let run = try GroupRun(legs: [first, second], mode: "both")
        try #require(run.camcast.waitForLog("RTMP publishing", count: 2, timeout: 20), "never published twice: \(run.camcast.stderrSoFar)")
        usleep(3_000_000)
        try second.kill()
        let killed = Date()
        usleep(6_000_000)
        let health = try run.http.get("/healthz")
        Self.sleepOutOfTheOutage(since: killed)
        try second.start()
        let resumed = run.camcast.waitForLog("RTMP reconnected", timeout: 90)
        usleep(3_000_000)
        let result = try run.stop()
        try first.stop()
        try second.stop()

        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains(Self.streamKey))
        #expect(resumed, "the second leg never came back: \(result.stderr)")
        #expect(health.status == 200 && health.body.contains("leg 2"), "/healthz with one leg down: \(health.status) \(health.body)")

        let reference = try HashedPackets(run.reference)
        let firstFiles = try first.uniqueRecordings(Self.streamKey)
        let secondFiles = try second.uniqueRecordings(Self.streamKey)
        try #require(firstFiles.count == 1 && secondFiles.count == 2, "recordings: \(firstFiles) \(secondFiles)")
        // Every encoded picture on the leg that stayed up, in order, with the encoder's
        // timestamps and keyframes; the other leg's two parts carry the same (located checks it).
        let whole = try reference.locate(HashedPackets(firstFiles[0]))
        #expect(whole.problems.isEmpty, "\(whole.problems)")
        #expect(whole.first == 0 && whole.last == reference.packets.count - 1 && whole.count == reference.packets.count,
                "the first leg has #\(whole.first)…#\(whole.last), \(whole.count) of \(reference.packets.count) pictures")
        for file in secondFiles {
            let part = try reference.locate(HashedPackets(file))
            #expect(part.problems.isEmpty, "\(file.lastPathComponent): \(part.problems)")
            #expect(part.startsWithKeyframe, "\(file.lastPathComponent) starts at #\(part.first), no keyframe")
        }
    }
}

/// One camcast run with a group output over `legs` and an FLV file of the same encode beside it.
private struct GroupRun {
    let camcast: RunningProcess
    let reference: URL
    let http: OperatorHTTP

    init(legs: [RTMPServer], mode: String, extra: String = "") throws {
        let dir = try Project.scratchDirectory("output-group")
        reference = dir.appendingPathComponent("reference.flv")
        let port = Int(try freeLoopbackPort())
        http = OperatorHTTP(port: port)
        let urls = legs.map { "\"\($0.url(app: "rec", name: OutputGroupTests.streamKey))\"" }.joined(separator: ", ")
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
            outputs:
              - urls: [\(urls)]
                mode: \(mode)
            \(extra)  - path: "\(reference.path)"
            http:
              listen: 127.0.0.1:\(port)

            """.write(to: config, atomically: true, encoding: .utf8)
        camcast = try ProcessRunner.start(
            Project.camcastBinary.path,
            ["run", "--config", config.path, "--source", "testpattern", "--size", "320x180", "--fps", "30", "--bitrate", "400",
             "--keyint-seconds", "\(OutputGroupTests.keyframeSeconds)"])
    }

    func stop() throws -> ProcessResult {
        camcast.signal(SIGTERM)
        return try camcast.wait(timeout: 30)
    }
}
