import Foundation
import TestSupport
import Testing

/// A server's reconnect request (Enhanced RTMP v2, issue 43) against scripts/reconnect-request-rtmp-server,
/// which accepts the publish, asks for a reconnect `after` seconds later and records what it
/// received as FLV. What reached each server is judged with ffprobe frame by frame against an FLV
/// file output of the same run (every encoded picture, found by the MD5 of its bytes, as in
/// OutputGroupTests): the new connection must start at a keyframe with the picture after the old
/// connection's last — no gap, nothing twice — whatever the machine's speed.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct ReconnectRequestTests {
    static let streamKey = "rEcOnNeCt-kEy-4711"
    static let keyframeSeconds = 2
    static let requestAfterSeconds = 3

    @Test func aRequestNamingNginxMovesTheStreamThereAtAKeyframe() throws {
        let nginx = try RTMPServer(environment: ["RTMP_RECORD_UNIQUE": "on"])
        defer { try? nginx.stop() }
        let run = try RequestRun(tcUrl: "rtmp://\(nginx.host):\(nginx.port)/rec")
        defer { run.stopAll() }
        let metrics = try run.stream(until: "switched to the new connection").metrics
        Self.expectAnswered(.switched, in: metrics)
        #expect(!run.server.stdoutSoFar.contains(Self.streamKey))
        // The old connection ended as on a stop: end of sequence, then deleteStream.
        let events = run.server.stdoutSoFar
        #expect(events.contains("end-of-sequence 1") && events.contains("deleteStream 1"), "\(events)")
        #expect(!events.contains("publish 2"), "camcast came back to the scripted server: \(events)")
        try Self.expectAnnouncement(run.connectObject(1))

        let reference = try HashedPackets(run.reference)
        let nginxFiles = try nginx.uniqueRecordings(Self.streamKey)
        try #require(nginxFiles.count == 1, "nginx recordings: \(nginxFiles)")
        let old = try reference.locate(HashedPackets(run.recording(1)))
        let new = try reference.locate(HashedPackets(nginxFiles[0]))
        try Self.expectSeamless(old: old, new: new, reference: reference)
        #expect(try ProbedVideo.decodeErrors(nginxFiles[0]).isEmpty, "nginx's recording does not decode cleanly")
    }

    @Test func aRequestWithoutATcUrlReconnectsToTheSameServer() throws {
        let run = try RequestRun(tcUrl: nil)
        defer { run.stopAll() }
        let metrics = try run.stream(until: "switched to the new connection").metrics
        Self.expectAnswered(.switched, in: metrics)
        let events = run.server.stdoutSoFar
        #expect(events.contains("publish 2") && events.contains("deleteStream 1"), "\(events)")
        try Self.expectAnnouncement(run.connectObject(2))

        let reference = try HashedPackets(run.reference)
        let old = try reference.locate(HashedPackets(run.recording(1)))
        let new = try reference.locate(HashedPackets(run.recording(2)))
        try Self.expectSeamless(old: old, new: new, reference: reference)
    }

    @Test func aTcUrlThatIsNoRTMPAddressKeepsTheStreamOnTheOldConnection() throws {
        let run = try RequestRun(tcUrl: "htp:/not a url \u{1B}[2J")
        defer { run.stopAll() }
        let (result, metrics) = try run.stream(until: "RTMP reconnect request refused")
        #expect(!result.stderr.contains("\u{1B}"), "the server's escape sequence reached the log")
        Self.expectAnswered(.refused, in: metrics)
        let events = run.server.stdoutSoFar
        #expect(events.contains("request 1") && !events.contains("publish 2"), "\(events)")
        // One connection carried the stream from its first picture to the run's last (the stop
        // drains the queue), with none missing inside it.
        let reference = try HashedPackets(run.reference)
        let whole = try reference.locate(HashedPackets(run.recording(1)))
        print("reconnect request refused: one connection #\(whole.first)…#\(whole.last) of \(reference.packets.count) pictures")
        #expect(whole.problems.isEmpty, "\(whole.problems)")
        #expect(whole.last == reference.packets.count - 1, "the scripted server has #\(whole.first)…#\(whole.last) of \(reference.packets.count)")
    }

    /// /metrics, scraped before the stop, counted one request with `outcome` and none other.
    static func expectAnswered(_ outcome: Outcome, in metrics: String) {
        for other in Outcome.allCases {
            let value = OperatorHTTP.value(
                of: #"camcast_output_reconnect_requests_total{output="rtmp-1",kind="rtmp",outcome="\#(other.rawValue)"}"#, in: metrics)
            #expect(value == (other == outcome ? 1 : 0), "\(other): \(value.map { "\($0)" } ?? "no series")")
        }
    }

    enum Outcome: String, CaseIterable { case switched, refused, failed }

    /// The connect command's object as the scripted server decoded it: E-RTMP v2's announcement
    /// beside librtmp's own properties.
    static func expectAnnouncement(_ object: [String: Any]) {
        #expect(object["fourCcList"] as? [String] == ["avc1"], "\(object)")
        #expect(object["capsEx"] as? Double == 1, "\(object)")
        #expect(object["app"] as? String == "live" && object["type"] as? String == "nonprivate", "\(object)")
    }

    /// Both parts are runs of the encoder's pictures with nothing missing inside, the new one
    /// starts at a keyframe, and it starts with the picture right after the old one's last.
    static func expectSeamless(old: HashedPackets.Located, new: HashedPackets.Located, reference: HashedPackets) throws {
        print("reconnect request: old connection #\(old.first)…#\(old.last), new #\(new.first)…#\(new.last) (key \(new.startsWithKeyframe)) of \(reference.packets.count) pictures")
        #expect(old.problems.isEmpty && new.problems.isEmpty, "\(old.problems) \(new.problems)")
        #expect(new.startsWithKeyframe, "the new connection starts at #\(new.first), no keyframe")
        #expect(new.first == old.last + 1, "old connection #\(old.first)…#\(old.last), new #\(new.first)…#\(new.last)")
        // Measured in the run's own pictures: the switch came after the request (a few seconds of
        // pictures on the old connection) and the new connection carried on to the end.
        #expect(old.count > 0 && new.last == reference.packets.count - 1, "new connection up to #\(new.last) of \(reference.packets.count)")
    }
}

/// The scripted server and a camcast publishing to it, with an FLV file of the same encode beside.
private struct RequestRun {
    let started = ProcessGroup()
    let http: OperatorHTTP
    let directory: URL
    let server: RunningProcess
    let camcast: RunningProcess
    let reference: URL

    init(tcUrl: String?) throws {
        directory = try Project.scratchDirectory("reconnect-request")
        reference = directory.appendingPathComponent("reference.flv")
        var arguments = ["--record", directory.appendingPathComponent("received").path, "--after", "\(ReconnectRequestTests.requestAfterSeconds)"]
        if let tcUrl { arguments += ["--tc-url", tcUrl] }
        let port: Int
        (server, port) = try ScriptedServer.start(
            "reconnect-request-rtmp-server", arguments, portFile: directory.appendingPathComponent("port").path, in: started)
        let config = directory.appendingPathComponent("camcast.yaml")
        http = OperatorHTTP(port: Int(try freeLoopbackPort()))
        try """
            outputs:
              - url: rtmp://127.0.0.1:\(port)/live/\(ReconnectRequestTests.streamKey)
              - path: "\(reference.path)"
            http:
              listen: 127.0.0.1:\(http.port)

            """.write(to: config, atomically: true, encoding: .utf8)
        chmod(config.path, 0o600)
        camcast = try started.start(
            Project.camcastBinary.path,
            ["run", "--config", config.path, "--source", "testpattern", "--size", "320x180", "--fps", "30", "--bitrate", "400",
             "--keyint-seconds", "\(ReconnectRequestTests.keyframeSeconds)"])
    }

    func recording(_ connection: Int) -> URL { directory.appendingPathComponent("received-\(connection).flv") }

    func connectObject(_ connection: Int) throws -> [String: Any] {
        let data = try Data(contentsOf: directory.appendingPathComponent("received-\(connection).connect.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// Streams until camcast logs `line` and 3 s more, then scrapes /metrics and stops it: it saw
    /// the line, stopped cleanly and never printed the key.
    func stream(until line: String) throws -> (result: ProcessResult, metrics: String) {
        let seen = camcast.waitForLog(line, timeout: 30)
        usleep(3_000_000)
        let metrics = (try? http.get("/metrics").body) ?? ""
        camcast.signal(SIGTERM)
        let result = try camcast.wait(timeout: 30)
        #expect(seen, "no '\(line)': \(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains(ReconnectRequestTests.streamKey))
        return (result, metrics)
    }

    func stopAll() { started.stopAll() }
}
