import Foundation
import TestSupport
import Testing

/// The README's first command, run as a user runs it: `scripts/demo` installs, builds the release
/// binary (the .deb's build: in scripts/test the package group runs after it, so nothing is built
/// again), streams to a local nginx-rtmp, asks camcast's /status half-way and prints what ffprobe
/// finds in the server's recording. Its output is read here as a person would read it.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["CAMCAST_TEST_DEB"] != nil || Environment.requireIntegration,
                "builds the release binary; scripts/test runs it once the .deb is built"))
struct DemoScriptTests {
    @Test func theDemoStreamsAndPrintsWhatTheServerReceived() throws {
        // A state directory and ports of the test's own; the demo restarts the server there.
        let server = try RTMPServer()
        let httpPort = try freeLoopbackPort()
        let seconds = 6
        let result = try ProcessRunner.run("/usr/bin/env", [
            "RTMP_STATE=\(server.state.path)", "RTMP_PORT=\(server.port)", "RTMP_HTTP_PORT=\(server.httpPort)",
            "CAMCAST_HTTP_LISTEN=127.0.0.1:\(httpPort)", "DEMO_SECONDS=\(seconds)",
            Project.root.appendingPathComponent("scripts/demo").path,
        ], timeout: 900)
        let output = result.stdout + result.stderr
        try #require(result.status == 0, "scripts/demo exited \(result.status):\n\(output.suffix(4000))")

        // It names what it streams: the test pattern on a machine without a camera.
        let streaming = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("--- streaming ") }, "\(result.stdout)")
        let source = streaming.split(separator: " ")[2]
        // Half-way, camcast's own summary from /status.
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let said = try #require(lines.firstIndex { $0.hasPrefix("--- half-way") }.map { lines[$0 + 1] }, "\(result.stdout)")
        #expect(said == "streaming 1280x720 to 1/1 outputs  (healthy)", "\(result.stdout)")

        // ffprobe's view of the recording: H.264 at the demo's size, AAC beside it, frames counted.
        let streams = lines.filter { $0.hasPrefix("stream|") }.map(Self.fields)
        let video = try #require(streams.first { $0["codec_type"] == "video" }, "\(result.stdout)")
        let audio = try #require(streams.first { $0["codec_type"] == "audio" }, "\(result.stdout)")
        #expect(video["codec_name"] == "h264" && video["width"] == "1280" && video["height"] == "720", "\(video)")
        #expect(audio["codec_name"] == "aac", "\(audio)")
        let frames = Int(video["nb_read_frames"] ?? "") ?? 0
        // Pictures arrived. How many of the 30 a second a 1280x720 encode keeps is this machine's speed
        // (103 of 180 on one loaded core): a scripts/bench figure, not this test's.
        #expect(frames > 0, "\(frames) frames from \(source)")
        #expect((Int(audio["nb_read_frames"] ?? "") ?? 0) > 0, "\(audio)")

        // The stream key (the URL's last element, "demo") is masked in everything it printed.
        #expect(!output.contains(":\(server.port)/rec/demo"), "\(output.suffix(4000))")
        #expect(output.contains("/rec/****"), "camcast's lines name the output masked: \(output.suffix(2000))")
    }

    /// "stream|codec_name=h264|width=1280|…" → its key=value pairs.
    static func fields(_ line: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in line.split(separator: "|").dropFirst() {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        return fields
    }
}
