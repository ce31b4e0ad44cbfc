import Foundation
import TestSupport
import Testing

/// Issue 26 defect 1, the open: a file output whose folder hangs at open(2) (a dead NFS mount)
/// used to hold `camcast run`'s start, or the SIGHUP reload that added it, for good. Now the
/// other outputs stream, the hung one is reported (starting, with its path) in the log and
/// /status, it starts writing once the path answers, and a stop ends in bound.
///
/// The hung folder is a FIFO with no reader: the daemon's open(2) (O_WRONLY, blocking) waits
/// until the test opens the reading end, as an open on a dead mount waits for its server.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct HungOpenStartTests {
    static let streamKey = "hUnG-oPeN-kEy-31"

    static func config(server: RTMPServer, port: Int, hungPath: String?) -> String {
        config(server: server, port: port, streamKey: streamKey, fileOutput: hungPath.map { "path: \($0)" })
    }

    /// A small, cheap stream to nginx-rtmp, /status on `port`, and `fileOutput` (an output's
    /// YAML, e.g. `record: /folder`) beside it; HungMountTests' too.
    static func config(server: RTMPServer, port: Int, streamKey: String, fileOutput: String?) -> String {
        """
        source:
          size: 320x180
          fps: 15
        encoder:
          bitrate_kbps: 300
          keyframe_interval_seconds: 1
        outputs:
          - url: \(server.url(app: "rec", name: streamKey))
        \(fileOutput.map { "  - \($0)" } ?? "")
        http:
          listen: 127.0.0.1:\(port)

        """
    }

    static func makeFIFO(_ directory: URL) throws -> String {
        let path = directory.appendingPathComponent("stuck.flv").path
        try #require(mkfifo(path, 0o644) == 0)
        return path
    }

    /// The output stays `starting`, and /status says why with its path (never a stream key).
    static func expectReportedStarting(_ http: OperatorHTTP, kind: String, path: String, streamKey: String = streamKey) throws {
        var output: [String: Any] = [:]
        let status = try http.wait("/status", timeout: 15) { reply in
            output = Self.output(kind, in: reply.body) ?? [:]
            return (output["lastError"] as? String)?.contains("does not open yet") == true
        }
        #expect(output["phase"] as? String == "starting", "\(status.body)")
        #expect((output["lastError"] as? String)?.contains(path) == true, "\(status.body)")
        #expect(!status.body.contains(streamKey))
    }

    /// The first output of `kind` in a /status body.
    static func output(_ kind: String, in body: String) -> [String: Any]? {
        guard let json = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
            let outputs = json["outputs"] as? [[String: Any]]
        else { return nil }
        return outputs.first { $0["kind"] as? String == kind }
    }

    /// Waits until nginx-rtmp has recorded a few seconds of the stream.
    static func expectStreamArrives(_ recording: URL, _ process: RunningProcess) {
        let arrived = (0..<150).contains { _ in
            usleep(200_000)
            return ((try? FileManager.default.attributesOfItem(atPath: recording.path)[.size] as? Int) ?? 0) > 80_000
        }
        #expect(arrived, "the RTMP stream did not arrive: \(process.stderrSoFar)")
    }

    /// SIGTERM while the open still hangs: the exit comes after the drain (2 s) and the grace
    /// (2 s), not at the 15 s hard exit; the writer left behind is named in the log.
    static func expectStopInBound(_ process: RunningProcess, streamKey: String = streamKey) throws {
        let stopAsked = Date()
        process.signal(SIGTERM)
        let result = try process.wait(timeout: 30)
        let took = Date().timeIntervalSince(stopAsked)
        #expect(took < 10, "the stop took \(took) s: \(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("the file did not open in time"), "\(result.stderr)")
        #expect(!result.stderr.contains(streamKey))
    }

    @Test(.timeLimit(.minutes(2)))
    func aStartGoesOnWhileAFileOutputsOpenHangsAndTheStopEndsInBound() throws {
        let server = try RTMPServer()
        defer { try? server.stop() }
        let dir = try Project.scratchDirectory("hung-open-start")
        let fifo = try Self.makeFIFO(dir)
        let port = Int(try freeLoopbackPort())
        let config = dir.appendingPathComponent("camcast.yaml")
        try Self.config(server: server, port: port, hungPath: fifo).write(to: config, atomically: true, encoding: .utf8)
        let process = try Daemon.start(["run", "--config", config.path])
        defer { process.signal(SIGKILL); _ = try? process.wait(timeout: 5) }

        try #require(Daemon.waitForLog(process, "info ready", timeout: 30), "the start waited for the hung open: \(process.stderrSoFar)")
        #expect(process.stderrSoFar.contains("file does not open yet"), "\(process.stderrSoFar)")
        try #require(Daemon.waitForLog(process, "RTMP publishing", timeout: 30), "\(process.stderrSoFar)")
        try Self.expectReportedStarting(OperatorHTTP(port: port), kind: "flv", path: fifo)
        // The stream reaches the server: nginx-rtmp records it, and ffprobe reads pictures.
        let recording = server.recording(Self.streamKey)
        Self.expectStreamArrives(recording, process)
        try Self.expectStopInBound(process)
        try server.stop()
        let pictures = try ProbedVideo.packets(recording).count
        #expect(pictures > 15, "\(pictures) pictures")
    }

    @Test(.timeLimit(.minutes(2)))
    func aReloadThatAddsAHungFileOutputFinishesAndTheOutputWritesOnceThePathAnswers() throws {
        let server = try RTMPServer()
        defer { try? server.stop() }
        let dir = try Project.scratchDirectory("hung-open-reload")
        let fifo = try Self.makeFIFO(dir)
        let port = Int(try freeLoopbackPort())
        let config = dir.appendingPathComponent("camcast.yaml")
        try Self.config(server: server, port: port, hungPath: nil).write(to: config, atomically: true, encoding: .utf8)
        let systemd = try NotifyListener()
        defer { systemd.stop() }
        let process = try Daemon.start(["run", "--config", config.path], environment: ["NOTIFY_SOCKET": systemd.address])
        defer { process.signal(SIGKILL); _ = try? process.wait(timeout: 5) }
        let ready = try #require(systemd.waitFor(timeout: 30) { $0.hasPrefix("READY=1") }, "no READY=1: \(process.stderrSoFar)")
        try #require(Daemon.waitForLog(process, "RTMP publishing", timeout: 30), "\(process.stderrSoFar)")

        try Self.config(server: server, port: port, hungPath: fifo).write(to: config, atomically: true, encoding: .utf8)
        process.signal(SIGHUP)
        let reloading = try #require(systemd.waitFor(after: ready.seconds, timeout: 10) { $0.hasPrefix("RELOADING=1") })
        let reloaded = systemd.waitFor(after: reloading.seconds, timeout: 15) { $0.hasPrefix("READY=1") }
        try #require(reloaded != nil, "the reload that added the hung output did not finish: \(process.stderrSoFar)")
        #expect(process.stderrSoFar.contains("file does not open yet"), "\(process.stderrSoFar)")
        try Self.expectReportedStarting(OperatorHTTP(port: port), kind: "flv", path: fifo)

        // The path answers: the output opens and writes an FLV stream while the RTMP one goes on.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(reader >= 0)
        defer { close(reader) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let deadline = Date().addingTimeInterval(30)
        while received.count < 20_000 && Date() < deadline {
            var request = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
            _ = poll(&request, 1, 100)
            let got = read(reader, &buffer, buffer.count)
            if got > 0 { received += buffer[..<got] }
        }
        #expect(received.starts(with: Array("FLV".utf8)) && received.count >= 20_000, "\(received.count) bytes: \(process.stderrSoFar)")
        let writing = try OperatorHTTP(port: port).wait("/status", timeout: 10) { Self.output("flv", in: $0.body)?["phase"] as? String == "writing" }
        #expect(Self.output("flv", in: writing.body)?["phase"] as? String == "writing", "\(writing.body)")

        process.signal(SIGTERM)
        let result = try process.wait(timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains(Self.streamKey))
        // One publish for the whole run: adding the output never touched the RTMP stream.
        #expect(result.stderr.components(separatedBy: "RTMP publishing").count - 1 == 1, "\(result.stderr)")
        try server.stop()
        #expect(try ProbedVideo.decodeErrors(server.recording(Self.streamKey)) == "")
    }
}
