import Foundation
import TestSupport
import Testing

/// rtmp:// over IPv6: a bracketed literal, and a host name that has only an IPv6 address, against
/// an nginx-rtmp that listens on [::1] only (so nothing can fall back to IPv4).
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct IPv6Tests {
    static let streamKey = "iPv6-kEy-2001"
    static let videoFlags = ["--size", "320x180", "--fps", "30", "--bitrate", "400", "--keyint-seconds", "1", "--duration", "3"]

    static func checkPublished(_ result: ProcessResult, server: RTMPServer, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains(streamKey), "the stream key leaked into the log", sourceLocation: sourceLocation)
        let published = result.stderr.split(separator: "\n").filter { $0.contains("RTMP publishing") }
        #expect(published.count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(published.first?.contains("family=IPv6") == true, "\(published)", sourceLocation: sourceLocation)
        #expect(published.first?.contains("tls=none") == true, "\(published)", sourceLocation: sourceLocation)
        #expect(published.first?.contains("address=[::1]:\(server.port)") == true, "\(published)", sourceLocation: sourceLocation)
        let video = try ProbedVideo.probe(server.recording(streamKey))
        // Every frame encoded arrived, and those with the slots no picture filled (skipped at the
        // source or dropped at the encoder's full queue on a loaded machine, however many) fill
        // the 3 s at 30 fps.
        let encoded = CamcastLog.stopCount("frames", in: result.stderr), unencoded = CamcastLog.unencodedSlots(in: result.stderr)
        #expect(video.decodedFrames == encoded, "recorded \(video.decodedFrames) of \(encoded.map(String.init) ?? "?") frames encoded", sourceLocation: sourceLocation)
        #expect(abs((encoded ?? 0) + (unencoded ?? 0) - 90) <= 2, "\(encoded.map(String.init) ?? "?") encoded + \(unencoded.map(String.init) ?? "?") skipped or dropped at the encoder of 90 slots", sourceLocation: sourceLocation)
        #expect(try ProbedVideo.decodeErrors(server.recording(streamKey)) == "", sourceLocation: sourceLocation)
    }

    @Test func bracketedIPv6LiteralPublishesAndRecords() throws {
        let server = try RTMPServer(environment: ["RTMP_LISTEN": "[::1]"])
        let url = server.url(app: "rec", name: Self.streamKey)
        #expect(url.hasPrefix("rtmp://[::1]:"))
        let result = try ProcessRunner.run(Project.camcastBinary.path, ["run"] + Self.videoFlags + ["--output", url], timeout: 30)
        try server.stop()
        try Self.checkPublished(result, server: server)
        #expect(result.stderr.contains("url=rtmp://[::1]:\(server.port)/rec/****"), "\(result.stderr)")
    }

    /// The name resolves through /etc/hosts to ::1 only. The machine's /etc/hosts stays untouched:
    /// camcast runs in a mount namespace of its own (`unshare -m`) where a temporary hosts file is
    /// bind-mounted over it.
    @Test func hostNameWithOnlyAnIPv6AddressPublishesAndRecords() throws {
        let server = try RTMPServer(environment: ["RTMP_LISTEN": "[::1]"])
        let hosts = server.state.appendingPathComponent("hosts")
        try "::1 camcast-v6only.test\n".write(to: hosts, atomically: true, encoding: .utf8)
        let url = "rtmp://camcast-v6only.test:\(server.port)/rec/\(Self.streamKey)"
        let command = "mount --bind \"$1\" /etc/hosts && shift && exec \"$@\""
        let result = try ProcessRunner.run(
            "/usr/bin/unshare",
            ["-m", "--propagation", "private", "/bin/sh", "-c", command, "sh", hosts.path, Project.camcastBinary.path, "run"]
                + Self.videoFlags + ["--output", url],
            timeout: 30)
        try server.stop()
        try Self.checkPublished(result, server: server)
        // Outside that namespace the name does not resolve at all.
        let outside = try ProcessRunner.run("/usr/bin/getent", ["ahosts", "camcast-v6only.test"], timeout: 10)
        #expect(outside.status != 0, "the test name leaked into the machine's resolver: \(outside.stdout)")
    }
}
