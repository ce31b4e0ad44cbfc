import Foundation
import TestSupport
import Testing

/// The connect command camcast sends, as Wireshark's RTMP dissector reads it off the wire (issue
/// 43: "FFmpeg 8 reads the connect command's fourCcList, or a packet capture shows it"): a publish
/// to nginx-rtmp captured on loopback by tshark and dissected by it — nobody here wrote either —
/// must announce Enhanced RTMP v2's `fourCcList` with the codec in use (`avc1` for H.264, `hvc1` for
/// H.265) and `capsEx` 1 (the reconnect capability), beside librtmp's own properties.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct ConnectCommandCaptureTests {
    static let streamKey = "cApTuRe-KeY-0043"

    @Test(arguments: [("h264", "avc1"), ("h265", "hvc1")])
    func theConnectCommandAnnouncesTheCodecAndTheReconnectCapability(codec: String, fourCC: String) throws {
        try OperatorViewTests.requireTool("tshark")
        let server = try RTMPServer()
        defer { try? server.stop() }
        let dir = try Project.scratchDirectory("connect-capture-\(codec)")
        let capture = dir.appendingPathComponent("publish.pcapng")
        let tshark = try ProcessRunner.start(
            "/usr/bin/tshark", ["-i", "lo", "-f", "tcp port \(server.port)", "-w", capture.path])
        defer { tshark.stop() }
        // tshark says when it captures; a publish before that would be missed.
        let deadline = Date().addingTimeInterval(30)
        while !tshark.stderrSoFar.contains("Capturing on"), Date() < deadline, !tshark.hasExited { usleep(20_000) }
        try #require(tshark.stderrSoFar.contains("Capturing on"), "tshark: \(tshark.stderrSoFar)")

        let run = try ProcessRunner.run(
            Project.camcastBinary.path,
            ["run", "--source", "testpattern", "--size", "320x180", "--fps", "30", "--bitrate", "300", "--codec", codec,
             "--duration", "2", "--output", server.url(app: "live", name: Self.streamKey)],
            timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("RTMP publishing"), "\(run.stderr)")
        // SIGINT ends tshark's capture and writes out what it holds.
        tshark.signal(SIGINT)
        _ = try tshark.wait(timeout: 30)

        let dissected = try ProcessRunner.run(
            "/usr/bin/tshark", ["-r", capture.path, "-d", "tcp.port==\(server.port),rtmpt", "-Y", "rtmpt", "-V"], timeout: 60)
        try #require(dissected.status == 0, "tshark -r: \(dissected.stderr)")
        let command = try #require(Self.connectCommand(in: dissected.stdout), "no connect command in the capture:\n\(dissected.stdout.prefix(4000))")
        #expect(command.contains("Property 'app' String 'live'"), "\(command)")
        #expect(command.contains("Property 'fourCcList' Strict array"), "\(command)")
        #expect(Self.fourCCs(in: command) == [fourCC], "\(command)")
        #expect(command.contains("Property 'capsEx' Number 1"), "\(command)")
    }

    /// The dissection of the AMF0 object of the connect command: from its `String: connect` to the
    /// object's end.
    static func connectCommand(in dissection: String) -> String? {
        guard let start = dissection.range(of: "String: connect\n") else { return nil }
        let rest = dissection[start.upperBound...]
        let end = rest.range(of: "End Of Object Marker")?.upperBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// The strings of the `fourCcList` array as the dissector lists them (`String 'avc1'`).
    static func fourCCs(in command: String) -> [String] {
        guard let list = command.range(of: "Property 'fourCcList' Strict array") else { return [] }
        let tail = command[list.upperBound...]
        let end = tail.range(of: "Property '")?.lowerBound ?? tail.endIndex
        return tail[..<end].matches(of: /String '([^']*)'/).map { String($0.1) }
    }
}
