import Foundation
import TestSupport
import Testing

/// SIGTERM reaches a source that is waiting for its next frame. Defect: at `--fps 0.05` the
/// capture thread slept out its 20 s frame interval, so a stop hit the daemon's 15 s hard exit
/// (exit 1, FLV not finalised). The bound, 5 s, is a quarter of the frame interval and leaves a
/// loaded machine time to flush the encoder and patch the FLV.
@Suite struct SourceStopTests {
    @Test func aSourceAtOneFrameEveryTwentySecondsStopsOnSIGTERMAtOnce() throws {
        let dir = try Project.scratchDirectory("slow-stop")
        let output = dir.appendingPathComponent("slow.flv")
        let process = try Daemon.start(["run", "--fps", "0.05", "--size", "320x240", "--output", output.path])
        #expect(Daemon.waitForLog(process, "info ready"), "\(process.stderrSoFar)")
        usleep(500_000)
        process.signal(SIGTERM)
        let result = try process.wait(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("did not stop within"), "\(result.stderr)")
        let stopping = try #require(result.stderr.split(separator: "\n").first { $0.contains("stopping") })
        let stopped = try #require(result.stderr.split(separator: "\n").first { $0.contains(" stopped ") })
        let took = try Self.seconds(stopped) - Self.seconds(stopping)
        #expect(took < 5, "stop took \(took) s")
        #expect(stopped.contains("frames=1"), "frame 0 only: \(stopped)")
    }

    /// Seconds of the day from a log line's `2026-11-24T06:55:04.523Z` prefix.
    static func seconds(_ line: Substring) throws -> Double {
        let time = try #require(line.split(separator: " ").first?.split(separator: "T").last?.dropLast())
        let parts = time.split(separator: ":").compactMap { Double($0) }
        try #require(parts.count == 3, "\(line)")
        return parts[0] * 3600 + parts[1] * 60 + parts[2]
    }
}
