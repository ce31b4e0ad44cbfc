import FLV
import Foundation
import TestSupport
import Testing

/// SIGTERM the way systemd stops a service: every output ends with the AVC end-of-sequence tag,
/// the server-side recording too, and the daemon exits 0 well within its stop bound. A second
/// signal ends a stop that hangs at once.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct DaemonStopTests {
    static let streamKey = "sTop-kEy-4242"

    @Test func sigtermEndsServerRecordingWithEndOfSequenceAndExitsZero() throws {
        let server = try RTMPServer()
        let dir = try Project.scratchDirectory("stop")
        let file = dir.appendingPathComponent("local.flv")
        let process = try Daemon.start(
            ["run", "--size", "320x180", "--output", server.url(app: "rec", name: Self.streamKey), "--output", file.path])
        #expect(Daemon.waitForLog(process, "info ready"), "\(process.stderrSoFar)")
        usleep(2_000_000)
        let signalled = Date()
        process.signal(SIGTERM)
        let result = try process.wait(timeout: 20)
        let stopSeconds = Date().timeIntervalSince(signalled)
        #expect(result.status == 0, "\(result.stderr)")
        // The daemon's own bound is 15 s (systemd's TimeoutStopSec is 20); a healthy stop is far quicker.
        #expect(stopSeconds < 5, "stopped in \(stopSeconds) s")
        try server.stop()

        for recording in [server.recording(Self.streamKey), file] {
            let (_, tags) = try FLVReader.readFile(atPath: recording.path)
            let last = try #require(tags.last)
            #expect(last.type == .video)
            #expect(try FLVVideoTagBody(parsing: last.body).avcPacketType == .endOfSequence, "\(recording.lastPathComponent)")
            #expect(try ProbedVideo.decodeErrors(recording) == "")
        }
    }

    @Test func aSecondSignalStopsAHangingStopAtOnce() throws {
        let dir = try Project.scratchDirectory("second-signal")
        let stall = dir.appendingPathComponent("stall")
        let process = try Daemon.start(
            ["run", "--size", "320x180", "--output", dir.appendingPathComponent("out.flv").path],
            environment: ["CAMCAST_DEBUG_STALL_CAPTURE_WHILE_EXISTS": stall.path])
        #expect(Daemon.waitForLog(process, "info ready"), "\(process.stderrSoFar)")
        // A capture thread stuck for good: the graceful stop waits for it…
        _ = FileManager.default.createFile(atPath: stall.path, contents: nil)
        usleep(300_000)
        process.signal(SIGTERM)
        usleep(1_000_000)
        #expect(kill(process.pid, 0) == 0, "the graceful stop is waiting for the stuck thread")
        // …and the second signal does not.
        let second = Date()
        process.signal(SIGTERM)
        let result = try process.wait(timeout: 5)
        #expect(Date().timeIntervalSince(second) < 1)
        #expect(result.status == 128 + SIGTERM, "\(result.stderr)")
        #expect(result.stderr.contains("SIGTERM again: exiting at once"))
    }
}
