import Foundation
import TestSupport
import Testing

/// Issue 14 against real parts: a flapping nginx-rtmp, an RTMP server that never answers beside a
/// local recording, SIGTERM during a reload, and a stream clock that crosses 2^32 ms.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct OutputServiceTests {
    static let streamKey = "oUtPuT-kEy-1414"
    static let videoFlags = ReconnectTests.videoFlags

    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> RunningProcess {
        try Daemon.start(["run"] + videoFlags + arguments, environment: environment)
    }

    /// #1: down 3 s, up 4 s, five times, then down 40 s. Every return is published to within
    /// 2.5 s of the server listening again, and every recording starts with a keyframe.
    @Test(.timeLimit(.minutes(4)))
    func aFlappingServerIsPublishedToWithinTwoAndAHalfSecondsOfEachReturn() throws {
        let server = try RTMPServer(environment: ["RTMP_RECORD_UNIQUE": "on"])
        let camcast = try Self.start(["--output", server.url(app: "rec", name: Self.streamKey)])
        try #require(camcast.waitForLog("RTMP publishing", timeout: 20), "never published: \(camcast.stderrSoFar)")
        usleep(3_000_000)
        var delays: [Double] = []
        let downs = [3.0, 3, 3, 3, 3, 40]
        for (round, down) in downs.enumerated() {
            try server.kill()
            usleep(UInt32(down * 1_000_000))
            try server.start()
            let listening = Date()
            if camcast.waitForLog("RTMP reconnected", count: round + 1, timeout: 10),
                let line = camcast.logLines(containing: "RTMP reconnected").last, let at = CamcastLog.time(of: line)
            {
                delays.append(at.timeIntervalSince(listening))
            } else {
                delays.append(.infinity)
            }
            // Up 4 s (nginx's record_unique names files by the second, so publishes differ).
            usleep(4_000_000)
        }
        let result = try ReconnectTests.stop(camcast)
        try server.stop()

        print("flap: server listening → camcast publishing, s: \(delays)")
        #expect(delays.allSatisfy { $0 <= 2.5 }, "server listening → camcast publishing, s: \(delays)")
        #expect(result.status == 0, "\(result.stderr)")
        ReconnectTests.expectNoKey(result)
        let recordings = try server.uniqueRecordings(Self.streamKey)
        #expect(recordings.count == 7, "one recording per publish: \(recordings.map(\.lastPathComponent))")
        let unencoded = try #require(CamcastLog.unencodedSlots(in: result.stderr), "no stop summary\n\(result.stderr)")
        for file in recordings {
            let check = try ResumedStreamCheck(file, unencodedSlots: unencoded)
            #expect(check.problems.isEmpty, "\(check.problems)")
        }
    }

    /// #2: a stop while the output waits between attempts (here after nginx refused the publish
    /// twice, an expensive failure with a growing wait) ends the run without another attempt.
    /// (The binary before issue 14 passes this too; the stop-during-connect case, where it did
    /// publish and unpublish an empty stream, is pinned by RTMPOutputTests with a fake server.)
    @Test(.timeLimit(.minutes(1)))
    func aStopDuringABackoffWaitOpensNoConnection() throws {
        let server = try RTMPServer()
        let config = try Project.scratchDirectory("backoff-stop").appendingPathComponent("camcast.yaml")
        try ("source:\n  size: 320x180\n  fps: 30\nreconnect:\n  initial_delay_seconds: 3\noutputs:\n"
            + "  - url: \(server.url(app: "denyall", name: Self.streamKey))\n").write(to: config, atomically: true, encoding: .utf8)
        let camcast = try Daemon.start(["run", "--config", config.path])
        try #require(camcast.waitForLog("RTMP connect failed, retrying", count: 2, timeout: 20), "\(camcast.stderrSoFar)")
        usleep(500_000)  // inside the wait before the third attempt (3 × 1.7 s, at least 3.8 s with jitter)
        camcast.signal(SIGTERM)
        let result = try camcast.wait(timeout: 20)
        try server.stop()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.seconds < 30)
        let afterStop = result.stderr.components(separatedBy: "stopping").dropFirst().joined()
        #expect(!afterStop.contains("RTMP connect failed") && !afterStop.contains("RTMP publishing"), "\(afterStop)")
        #expect(result.stderr.components(separatedBy: "RTMP connect failed").count - 1 == 2)
        ReconnectTests.expectNoKey(result)
    }

    /// #11: an RTMP server that takes the TCP connection and never answers holds up neither the
    /// start nor the stop: the local recording gets the whole run, and the stop is prompt.
    @Test(.timeLimit(.minutes(2)))
    func aSilentServerDelaysNeitherTheLocalRecordingNorTheStop() throws {
        let silent = try LoopbackListener()
        let dir = try Project.scratchDirectory("silent")
        let file = dir.appendingPathComponent("local.flv")
        let camcast = try Self.start([
            "--output", "rtmp://127.0.0.1:\(silent.port)/live/\(Self.streamKey)", "--output", file.path,
            "--connect-timeout", "60", "--duration", "4",
        ])
        let result = try camcast.wait(timeout: 40)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.seconds < 9, "took \(result.seconds) s")
        #expect(!result.stderr.contains(Self.streamKey))
        let packets = try ProbedVideo.packets(file)
        let span = (packets.last?.ptsMilliseconds ?? 0) - (packets.first?.ptsMilliseconds ?? 0)
        #expect(span >= 3_500, "the local recording holds \(span) ms of a 4 s run")
        #expect(try ProbedVideo.decodeErrors(file) == "")
    }

    /// #6: SIGTERM while a reload connects to a silent server used to wait for the reload, which
    /// held the pipeline through the whole connect: the 15 s hard exit, the FLV never finished.
    @Test(.timeLimit(.minutes(2)))
    func aStopDuringAReloadIsPromptAndFinishesTheRecording() throws {
        let silent = try LoopbackListener()
        let dir = try Project.scratchDirectory("reload-stop")
        let file = dir.appendingPathComponent("local.flv")
        let config = dir.appendingPathComponent("camcast.yaml")
        func writeConfig(_ outputs: [String]) throws {
            try ("source:\n  size: 320x180\n  fps: 30\nnetwork:\n  connect_timeout_seconds: 60\noutputs:\n"
                + outputs.map { "  - \($0)\n" }.joined()).write(to: config, atomically: true, encoding: .utf8)
        }
        try writeConfig(["path: \(file.path)"])
        let camcast = try Daemon.start(["run", "--config", config.path])
        #expect(Daemon.waitForLog(camcast, "info ready"), "\(camcast.stderrSoFar)")
        usleep(1_500_000)
        try writeConfig(["path: \(file.path)", "url: rtmp://127.0.0.1:\(silent.port)/live/\(Self.streamKey)"])
        camcast.signal(SIGHUP)
        usleep(1_000_000)
        let stopped = Date()
        camcast.signal(SIGTERM)
        let result = try camcast.wait(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Date().timeIntervalSince(stopped) < 6, "stop took \(Date().timeIntervalSince(stopped)) s")
        #expect(!result.stderr.contains("did not stop within"))
        #expect(try ProbedVideo.decodeErrors(file) == "")
        #expect(try ProbedVideo.packets(file).count >= 60)
    }

    /// #3: a stream clock that starts 5 s below 2^32 ms crosses it: nginx-rtmp keeps receiving
    /// (its recording decodes), and the local FLV rolls to a new file instead of wrapping.
    @Test(.timeLimit(.minutes(2)))
    func theStreamClockCrossesTwoToTheThirtyTwoMilliseconds() throws {
        let server = try RTMPServer()
        let dir = try Project.scratchDirectory("wrap")
        let file = dir.appendingPathComponent("wrap.flv")
        let camcast = try Self.start(
            ["--output", server.url(app: "rec", name: Self.streamKey), "--output", file.path, "--duration", "10"],
            environment: ["CAMCAST_DEBUG_STREAM_ORIGIN_MS": "\(Int64(UInt32.max) + 1 - 5_000)"])
        let result = try camcast.wait(timeout: 40)
        try server.stop()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("recording continues in a new file"), "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".flv") }.sorted()
        #expect(files.count == 2, "\(files)")
        for name in files {
            let path = dir.appendingPathComponent(name)
            #expect(try ProbedVideo.decodeErrors(path) == "", "\(name)")
            let unencoded = CamcastLog.unencodedSlots(in: result.stderr) ?? 0
            let check = try ResumedStreamCheck(path, unencodedSlots: unencoded)
            #expect(check.problems.isEmpty, "\(check.problems)")
        }
        // Every frame encoded reached the server (the clock's wrap lost none), whatever the source skipped.
        let received = try ProbedVideo.packets(server.recording(Self.streamKey))
        let encoded = CamcastLog.stopCount("frames", in: result.stderr) ?? -1
        let lost = (CamcastLog.stopCount("dropped", in: result.stderr) ?? 0) + (CamcastLog.stopCount("discarded", in: result.stderr) ?? 0)
        #expect(received.count + lost >= encoded && received.count > 0, "nginx-rtmp recorded \(received.count) of \(encoded) frames encoded (\(lost) dropped or discarded)")
        #expect(try ProbedVideo.decodeErrors(server.recording(Self.streamKey)) == "")
    }
}
