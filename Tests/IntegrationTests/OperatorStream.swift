import Foundation
import TestSupport
import Testing

/// A camcast streaming 640x360 to nginx-rtmp with its operator endpoint on a free loopback port:
/// what the HTTP abuse tests hammer the endpoint beside, and then check the stream survived.
struct OperatorStream {
    let camcast: RunningProcess
    let port: Int

    /// Starts camcast publishing `key` to `server` and waits until it publishes.
    static func start(to server: RTMPServer, key: String) throws -> OperatorStream {
        let port = Int(try freeLoopbackPort())
        let camcast = try Daemon.start(
            ["run", "--size", "640x360", "--fps", "30", "--bitrate", "800", "--keyint-seconds", "1", "--output",
             server.url(app: "rec", name: key)],
            environment: ["CAMCAST_HTTP_LISTEN": "127.0.0.1:\(port)"])
        try #require(Daemon.waitForLog(camcast, "RTMP publishing", timeout: 20), "\(camcast.stderrSoFar)")
        return OperatorStream(camcast: camcast, port: port)
    }

    /// Stops camcast and checks that the stream went on whole: it exited cleanly, the output dropped,
    /// discarded and reconnected nothing, and nginx's recording holds every picture camcast encoded
    /// (a picture the source skipped on a loaded machine is skipped for every output alike, so
    /// pictures are counted, not gaps). Returns camcast's result and the recorded packets.
    func stopExpectingTheStreamWhole(server: RTMPServer, key: String) throws -> (ProcessResult, [ProbedVideo.Packet]) {
        camcast.signal(SIGTERM)
        let result = try camcast.wait(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let field = { (name: String) in CamcastLog.stopCount(name, in: result.stderr) }
        #expect(field("dropped") == 0 && field("discarded") == 0 && field("reconnects") == 0, "\(result.stderr.suffix(2000))")
        try server.stop()
        let packets = try ProbedVideo.packets(server.recording(key))
        let frames = try #require(field("frames"), "no stop summary: \(result.stderr.suffix(2000))")
        #expect(abs(packets.count - frames) <= 2, "nginx has \(packets.count) pictures of \(frames)")
        return (result, packets)
    }
}
