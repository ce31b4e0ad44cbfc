import Foundation
import TestSupport
import Testing

/// SIGHUP changes the overlay's text from the first frame captured after the reload finished,
/// without a new keyframe: checked in the FLV file by tesseract, at stream times taken from the
/// log's wall-clock stamps.
@Suite(.serialized, .enabled(if: Environment.ocrIntegrationEnabled, Environment.ocrSkipReason))
struct OverlayReloadTests {
    static let (width, height) = (640, 360)

    @Test func newTextFromTheFirstFrameAfterTheReloadWithoutAKeyframe() throws {
        let dir = try Project.scratchDirectory("overlay-reload")
        let clip = try OverlayStreamTests.clip(in: dir)
        let output = dir.appendingPathComponent("out.flv")
        let config = dir.appendingPathComponent("camcast.yaml")
        func writeConfig(_ text: String) throws {
            try """
                source:
                  type: file
                  file: "\(clip.path)"
                encoder:
                  keyframe_interval_seconds: 30
                outputs:
                  - path: \(output.path)
                audio:
                  source: none
                overlay:
                  items:
                    - text: "\(text)"
                      position: centre
                      height: 48
                      box: black
                      box_alpha: 1
                """.write(to: config, atomically: true, encoding: .utf8)
        }
        try writeConfig("ALPHA ONE")
        let process = try Daemon.start(["run", "--config", config.path])
        #expect(Daemon.waitForLog(process, "info ready"), "\(process.stderrSoFar)")
        usleep(2_000_000)
        try writeConfig("BRAVO TWO")
        process.signal(SIGHUP)
        #expect(Daemon.waitForLog(process, "notice reloaded", timeout: 10), "\(process.stderrSoFar)")
        usleep(2_000_000)
        process.signal(SIGTERM)
        let result = try process.wait(timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("reload applied: overlay: 1 item(s)"), "\(result.stderr)")

        let log = result.stderr
        let first = try #require(log.firstMatch(of: /first frame captured.*wall_clock_unix_ms=(\d+)/).flatMap { Int64($0.1) })
        let reloading = try #require(Self.logMilliseconds(log, containing: "notice reloading"))
        let reloaded = try #require(Self.logMilliseconds(log, containing: "notice reloaded"))
        // A frame is in the run at (wall time − first capture); the log's stamps come a little
        // after the instants they tell of, so a frame captured 60 ms after "reloaded" is after it.
        let before = Double(reloading - first - 100) / 1000
        let after = Double(reloaded - first + 60) / 1000
        #expect(try Self.read(output, atSeconds: before, in: dir, name: "before") == "ALPHA ONE")
        #expect(try Self.read(output, atSeconds: after, in: dir, name: "after") == "BRAVO TWO")

        let keyframes = try ProbedVideo.packets(output).filter(\.isKeyframe).count
        #expect(keyframes == 1, "the reload asked for no keyframe: \(keyframes)")
    }

    /// A log line's timestamp (`2026-11-26T04:16:57.099Z …`) in milliseconds since the epoch.
    static func logMilliseconds(_ log: String, containing text: String) -> Int64? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains(text) }) else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: String(line.prefix { $0 != " " })).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
    }

    /// Tesseract's reading of the black box in the first frame at or after `seconds` of the file.
    static func read(_ file: URL, atSeconds seconds: Double, in dir: URL, name: String) throws -> String {
        let frame = try FFmpegTools.run(
            "ffmpeg",
            ["-nostdin", "-v", "error", "-i", file.path, "-vf", "select='gte(t\\,\(seconds))'", "-frames:v", "1",
             "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        let picture = [UInt8](frame)
        guard picture.count == width * height else { throw HarnessError("no frame at \(seconds) s (\(picture.count) bytes)") }
        // The box is the only near-black in the grey grid.
        var (minX, maxX, minY, maxY) = (width, -1, height, -1)
        for y in 0..<height {
            for x in 0..<width where picture[y * width + x] < 40 {
                (minX, maxX, minY, maxY) = (min(minX, x), max(maxX, x), min(minY, y), max(maxY, y))
            }
        }
        guard maxX > minX else { throw HarnessError("no text box at \(seconds) s") }
        return try OverlayFrames.read(picture, width: width, box: (minX..<(maxX + 1), minY..<(maxY + 1)), in: dir, name: name)
    }
}
