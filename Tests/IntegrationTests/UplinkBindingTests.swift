import Foundation
import TestSupport
import Testing

/// Outputs bound to an uplink (issue 43): `interface:` makes the connection leave by that
/// interface although the routing table prefers another, `source_address:` makes the server see
/// that address, and an interface that is absent or down at start is waited for (one line in the
/// log) and streamed over once it appears. The paths are two veth pairs between namespaces of the
/// test's own (`UplinkTestbed`); which interface carried the bytes is counted by nftables, who
/// connected by `ss` in the server's namespace, and what arrived by ffprobe on nginx's recording.
@Suite(.serialized, .enabled(if: Environment.networkFaultsEnabled, Environment.networkFaultsSkipReason))
struct UplinkBindingTests {
    static let streamKey = "uplink-key-5e1c9a"

    static func url(_ server: RTMPServer, name: String) -> String {
        "rtmp://\(UplinkTestbed.serverAddress):\(server.port)/rec/\(name)"
    }

    static func start(_ testbed: UplinkTestbed, _ config: URL) throws -> RunningProcess {
        let command = testbed.camcast(["run", "--config", config.path])
        return try ProcessRunner.start(command[0], Array(command.dropFirst()))
    }

    static func stop(_ camcast: RunningProcess) throws -> ProcessResult {
        camcast.signal(SIGTERM)
        return try camcast.wait(timeout: 20)
    }

    static func expectNoKey(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!result.stderr.contains(streamKey) && !result.stdout.contains(streamKey), "the stream key leaked", sourceLocation: sourceLocation)
    }

    /// Streams with `binding` until `frames` decodable pictures could have arrived (2 keyframe
    /// intervals after the publish), then stops; the log.
    static func streamBriefly(_ testbed: UplinkTestbed, _ server: RTMPServer, name: String, binding: String) throws -> ProcessResult {
        let dir = try Project.scratchDirectory("uplink")
        let camcast = try start(testbed, try UplinkTestbed.config(in: dir, url: url(server, name: "\(streamKey)-\(name)"), binding: binding))
        let published = camcast.waitForLog("RTMP publishing", timeout: 20)
        // Two keyframe intervals of stream, so the recording holds a whole GOP.
        if published { usleep(2_500_000) }
        let result = try stop(camcast)
        #expect(published, "never published with `\(binding)`: \(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
        expectNoKey(result)
        return result
    }

    static func recordedFrames(_ server: RTMPServer, name: String) throws -> Int {
        let file = server.recording("\(streamKey)-\(name)")
        guard FileManager.default.fileExists(atPath: file.path) else { return 0 }
        return try ProbedVideo.probe(file).decodedFrames
    }

    /// (a) bound to ua0, the stream leaves by ua0 although the route prefers ub0 (and unbound it
    /// does leave by ub0: the control that shows the binding, not the routing, chose the path);
    /// bound to ud0, which leads nowhere, it never reaches the server and keeps retrying.
    @Test func anInterfaceBindingChoosesThePathAndOneWithNoPathNeverArrives() throws {
        try #require(Environment.hasNetworkFaultParts, "\(Environment.networkFaultsMissing)")
        let testbed = try UplinkTestbed()
        let server = try RTMPServer(environment: ["RTMP_LISTEN": UplinkTestbed.serverAddress], namespace: testbed.server)
        try testbed.countTraffic(to: server.port, on: ["ua0", "ub0", "ud0"])

        _ = try Self.streamBriefly(testbed, server, name: "unbound", binding: "")
        let unbound = try testbed.sentBytes()
        #expect(unbound["ub0", default: 0] > 0 && unbound["ua0", default: 0] == 0, "the routing table's own choice is ub0: \(unbound)")

        _ = try Self.streamBriefly(testbed, server, name: "ua0", binding: "interface: ua0")
        let bound = try testbed.sentBytes()
        let byA = bound["ua0", default: 0] - unbound["ua0", default: 0]
        let byB = bound["ub0", default: 0] - unbound["ub0", default: 0]
        let frames = try Self.recordedFrames(server, name: "ua0")
        let recordingBytes = (try? FileManager.default.attributesOfItem(atPath: server.recording("\(Self.streamKey)-ua0").path)[.size] as? Int) ?? 0
        #expect(frames > 0, "nothing decodable arrived over ua0")
        // Every byte of the recording crossed the wire (plus RTMP and TCP/IP headers), by ua0 alone.
        #expect(byA >= recordingBytes && recordingBytes > 0, "ua0 sent \(byA) bytes for a \(recordingBytes)-byte recording")
        #expect(byB == 0, "bound to ua0, ub0 still sent \(byB) bytes to the server")

        let dir = try Project.scratchDirectory("uplink-nowhere")
        let camcast = try Self.start(testbed, try UplinkTestbed.config(in: dir, url: Self.url(server, name: "\(Self.streamKey)-ud0"), binding: "interface: ud0"))
        // Three attempts that found no way to the server, whatever they took.
        let retried = camcast.waitForLog("RTMP connect failed", count: 3, timeout: 60)
        let result = try Self.stop(camcast)
        let nowhere = try testbed.sentBytes()
        #expect(retried, "\(result.stderr)")
        #expect(!result.stderr.contains("RTMP publishing"), "reached the server over an interface with no path: \(result.stderr)")
        #expect(result.status == 0, "a server out of reach is retried, not fatal: \(result.stderr)")
        #expect(nowhere["ua0"] == bound["ua0"] && nowhere["ub0"] == bound["ub0"], "bound to ud0, bytes left by another path: \(bound) → \(nowhere)")
        #expect(nowhere["ud0", default: 0] > 0, "the attempts were made on ud0: \(nowhere)")
        #expect(try Self.recordedFrames(server, name: "ud0") == 0)
        Self.expectNoKey(result)
    }

    /// (b) `source_address:` A's address, while the route goes by B: the server sees the connection
    /// from that address. An address not yet on the machine is waited for, said once, and used
    /// as soon as it is assigned.
    @Test func aSourceAddressIsWhatTheServerSeesAndOneNotYetAssignedIsWaitedFor() throws {
        try #require(Environment.hasNetworkFaultParts, "\(Environment.networkFaultsMissing)")
        let testbed = try UplinkTestbed()
        let server = try RTMPServer(environment: ["RTMP_LISTEN": UplinkTestbed.serverAddress], namespace: testbed.server)
        let dir = try Project.scratchDirectory("uplink-source")

        let camcast = try Self.start(
            testbed, try UplinkTestbed.config(in: dir, url: Self.url(server, name: "\(Self.streamKey)-src"), binding: "source_address: \(UplinkTestbed.addressA)"))
        try #require(camcast.waitForLog("RTMP publishing", timeout: 20), "\(camcast.stderrSoFar)")
        let peers = try testbed.peers(ofPort: server.port)
        let result = try Self.stop(camcast)
        #expect(peers == [UplinkTestbed.addressA], "the server's peers: \(peers) (unbound, the route's own source is \(UplinkTestbed.addressB))")
        #expect(result.status == 0, "\(result.stderr)")
        Self.expectNoKey(result)

        let later = "10.43.1.9"
        let waiting = try Self.start(
            testbed, try UplinkTestbed.config(in: dir, url: Self.url(server, name: "\(Self.streamKey)-later"), binding: "source_address: \(later)"))
        let notice = "source address \(later) is not on this machine; waiting for it"
        try #require(waiting.waitForLog(notice, timeout: 20), "\(waiting.stderrSoFar)")
        // A few more attempts, on the reconnect schedule (each failure is counted in the log only once).
        usleep(3_000_000)
        try testbed.client.run(["ip", "address", "add", "\(later)/24", "dev", "ua0"])
        let published = waiting.waitForLog("RTMP publishing", timeout: 20)
        let latePeers = try testbed.peers(ofPort: server.port)
        let waited = try Self.stop(waiting)
        #expect(published, "\(waited.stderr)")
        #expect(latePeers == [later], "\(latePeers)")
        #expect(Self.said(notice, in: waited.stderr) == 1, "said once: \(waited.stderr)")
        #expect(waited.status == 0)
        Self.expectNoKey(waited)
    }

    /// How many times camcast logged `notice` (the status line, which repeats the output's state
    /// every interval, is not a log of the attempt).
    static func said(_ notice: String, in log: String) -> Int {
        log.split(separator: "\n").filter { $0.contains(notice) && !$0.contains(" info status ") }.count
    }

    /// The failed attempts of the output's `reason` label (/metrics, read inside the namespace).
    static func failures(_ testbed: UplinkTestbed, httpPort: UInt16, reason: String) -> Int {
        guard let scrape = try? testbed.client.run(["curl", "-sf", "http://127.0.0.1:\(httpPort)/metrics"]).stdout else { return 0 }
        let lines = scrape.split(separator: "\n").filter { $0.hasPrefix("camcast_output_connect_failures_total") && $0.contains("reason=\"\(reason)\"") }
        let values: [Double] = lines.compactMap { line in line.split(separator: " ").last.flatMap { Double($0) } }
        return values.reduce(0) { (sum: Int, value: Double) in sum + Int(value) }
    }

    static func waitForFailures(_ testbed: UplinkTestbed, httpPort: UInt16, atLeast count: Int, process: RunningProcess) -> Bool {
        // A harness limit, not a measured bound: the schedule retries within 2 s.
        for _ in 0..<600 where !process.hasExited {
            if failures(testbed, httpPort: httpPort, reason: "uplink") >= count { return true }
            usleep(100_000)
        }
        return false
    }

    /// (c) an interface that does not exist at start: the daemon runs on and says so once; the
    /// interface appears down (said once more), comes up, and the stream arrives over it.
    @Test func anInterfaceAbsentAtStartIsWaitedForAndStreamedOverOnceUp() throws {
        try #require(Environment.hasNetworkFaultParts, "\(Environment.networkFaultsMissing)")
        let testbed = try UplinkTestbed()
        let server = try RTMPServer(environment: ["RTMP_LISTEN": UplinkTestbed.serverAddress], namespace: testbed.server)
        try testbed.countTraffic(to: server.port, on: ["uc0", "ua0", "ub0"])
        let dir = try Project.scratchDirectory("uplink-late")
        let httpPort = try freeLoopbackPort()
        let camcast = try Self.start(
            testbed, try UplinkTestbed.config(in: dir, url: Self.url(server, name: "\(Self.streamKey)-late"), binding: "interface: uc0", http: Int(httpPort)))

        let absent = "interface uc0 is absent; waiting for it"
        try #require(camcast.waitForLog(absent, timeout: 20), "\(camcast.stderrSoFar)")
        #expect(Self.waitForFailures(testbed, httpPort: httpPort, atLeast: 3, process: camcast), "\(camcast.stderrSoFar)")
        let absentFailures = Self.failures(testbed, httpPort: httpPort, reason: "uplink")

        try testbed.link("uc", subnet: "10.43.3", up: false)
        let down = "interface uc0 is down; waiting for it"
        #expect(camcast.waitForLog(down, timeout: 20), "\(camcast.stderrSoFar)")
        #expect(Self.waitForFailures(testbed, httpPort: httpPort, atLeast: absentFailures + 2, process: camcast), "\(camcast.stderrSoFar)")
        #expect(!camcast.stderrSoFar.contains("RTMP publishing"))

        try testbed.client.run(["ip", "link", "set", "uc0", "up"])
        try testbed.client.run(["ip", "route", "add", "\(UplinkTestbed.serverAddress)/32", "via", "10.43.3.2", "dev", "uc0", "metric", "30"])
        let published = camcast.waitForLog("RTMP publishing", timeout: 20)
        if published { usleep(2_500_000) }
        let result = try Self.stop(camcast)
        try server.stop()
        let sent = try testbed.sentBytes()

        #expect(published, "\(result.stderr)")
        #expect(result.status == 0, "the daemon must run on while it waits: \(result.stderr)")
        #expect(Self.said(absent, in: result.stderr) == 1, "said once: \(result.stderr)")
        #expect(Self.said(down, in: result.stderr) == 1, "said once: \(result.stderr)")
        #expect(!result.stderr.contains("RTMP connect failed"), "each wait is said in its own words: \(result.stderr)")
        #expect(sent["uc0", default: 0] > 0 && sent["ua0"] == 0 && sent["ub0"] == 0, "\(sent)")
        let video = try ProbedVideo.probe(server.recording("\(Self.streamKey)-late"))
        #expect(video.decodedFrames > 0 && video.packets.first?.isKeyframe == true, "\(video.decodedFrames) frames")
        Self.expectNoKey(result)
    }

    /// (d) SRT: bound to ua0, the UDP packets to srt-live-transmit leave by ua0 although the route
    /// prefers ub0, and the MPEG-TS it wrote decodes.
    @Test func anSRTOutputBoundToAnInterfaceLeavesByIt() throws {
        try #require(Environment.hasNetworkFaultParts, "\(Environment.networkFaultsMissing)")
        try #require(FileManager.default.isExecutableFile(atPath: SRTOutputTests.srtLiveTransmit), "needs srt-tools (scripts/install-deps)")
        let testbed = try UplinkTestbed()
        let dir = try Project.scratchDirectory("uplink-srt")
        let port = Int(try freeLoopbackUDPPort())
        try testbed.countTraffic(to: port, on: ["ua0", "ub0"])
        let recording = dir.appendingPathComponent("rec.ts")
        let uri = "srt://\(UplinkTestbed.serverAddress):\(port)?mode=listener"
        let command = testbed.server.execPrefix + ["/bin/sh", "-c", "exec \"$0\" -a:no -q \"$1\" file://con > \"$2\"", SRTOutputTests.srtLiveTransmit, uri, recording.path]
        let listener = try ProcessRunner.start(command[0], Array(command.dropFirst()))
        defer { listener.stop() }
        // Until the listener's port is bound, so camcast's first attempt finds it (a harness limit).
        for _ in 0..<500 where !(try testbed.server.run(["ss", "-Huln", "sport = :\(port)"]).stdout.contains(":\(port) ")) { usleep(20_000) }

        let config = try UplinkTestbed.config(in: dir, url: "srt://\(UplinkTestbed.serverAddress):\(port)", binding: "interface: ua0")
        let run = try ProcessRunner.run("/usr/bin/env", testbed.camcast(["run", "--config", config.path, "--duration", "4"]), timeout: 120)
        let received = try listener.wait(timeout: 30)
        let sent = try testbed.sentBytes()

        #expect(run.status == 0 && run.stderr.contains("SRT connected"), "\(run.stderr)")
        #expect(received.status == 0, "srt-live-transmit: \(received.stderr)")
        let size = (try? FileManager.default.attributesOfItem(atPath: recording.path)[.size] as? Int) ?? 0
        #expect(sent["ua0", default: 0] >= size && size > 0, "ua0 sent \(sent) for a \(size)-byte recording")
        #expect(sent["ub0", default: 0] == 0, "bound to ua0, ub0 still sent: \(sent)")
        let video = try ProbedVideo.probe(recording)
        #expect(video.decodedFrames > 0 && video.packets.first?.isKeyframe == true, "\(video.decodedFrames) frames")
    }

    /// Names that can never be an interface, and a source address that is no address: exit 78
    /// from `run` and `check-config` alike, naming the key and its line.
    @Test func impossibleBindingsExit78FromRunAndCheckConfig() throws {
        let dir = try Project.scratchDirectory("uplink-78")
        let cases = [
            ("interface: wwan0-backup-uplink", "outputs[0].interface: 'wwan0-backup-uplink' is not an interface name: longer than 15 bytes"),
            ("interface: eth0/1", "outputs[0].interface: 'eth0/1' is not an interface name"),
            ("interface: \"..\"", "outputs[0].interface: '..' is not an interface name"),
            ("source_address: wwan0", "outputs[0].source_address: 'wwan0' is not an IP address"),
        ]
        for (binding, message) in cases {
            let config = try UplinkTestbed.config(in: dir, url: "rtmp://127.0.0.1:1/rec/\(Self.streamKey)", binding: binding)
            for arguments in [["run", "--config", config.path, "--duration", "1"], ["check-config", config.path]] {
                let result = try ProcessRunner.run(Project.camcastBinary.path, arguments, timeout: 60)
                #expect(result.status == 78, "\(arguments[0]) with `\(binding)`: \(result.stderr)")
                // The binding is line 9 of the file UplinkTestbed.config writes.
                #expect(result.stderr.contains("\(config.lastPathComponent):9:") && result.stderr.contains(message), "\(result.stderr)")
                Self.expectNoKey(result)
            }
        }
    }
}
