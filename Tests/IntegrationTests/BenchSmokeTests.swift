import Foundation
import TestSupport
import Testing

/// `scripts/bench --smoke`: one short run of each contender, so the benchmark cannot rot. It
/// checks that the figures and ratios are printed, never what they are (no timing assertion).
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct BenchSmokeTests {
    @Test func smokeRunPrintsRatiosAndLatency() throws {
        let dir = try Project.scratchDirectory("bench")
        let result = try ProcessRunner.run(
            "/usr/bin/env",
            ["BENCH_CAMCAST=\(Project.camcastBinary.path)", "BENCH_DIR=\(dir.path)",
             Project.root.appendingPathComponent("scripts/bench").path, "--smoke"],
            timeout: 240)
        #expect(result.status == 0, "bench failed: \(result.stderr.suffix(2000))")
        let number = #"[0-9]+\.[0-9]+"#
        // The y4m rows, and the camera rows (MJPEG and YUYV replayed through camcast's camera path).
        for row in ["320x180", "mjpeg-320x180", "yuyv-320x180"] {
            for mode in ["fast", "paced"] {
                #expect(result.stdout.contains("== \(row)@30 \(mode):"), "\(result.stdout)")
            }
        }
        // Every row sent its frames: a replay that broke would send none. A paced row skips what a
        // loaded machine cannot encode in time, as a camera would (29 of 30 beside a build; fewer on
        // one loaded core): how many is this machine's speed, so paced rows need some, and fast
        // rows, where nothing is skipped whatever the speed, all of them.
        let sent = result.stdout.split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix("camcast frames sent: "), line.contains(" of 30") else { return nil }
            return Int(line.dropFirst("camcast frames sent: ".count).prefix { $0.isNumber })
        }
        #expect(sent.count == 6, "\(result.stdout)")
        #expect(sent.allSatisfy { $0 > 0 }, "frames sent per row: \(sent)")
        #expect(sent.enumerated().filter { $0.offset % 2 == 0 }.allSatisfy { $0.element == 30 }, "fast rows: \(sent)")
        // The H.265 rows (scripts/bench-h265): camcast --codec h265 against ffmpeg's libx265.
        for mode in ["fast", "paced"] {
            #expect(result.stdout.contains("== h265-320x180@30 \(mode):"), "\(result.stdout)")
        }
        // The fast row encodes every frame whatever the load (the paced one may skip, as a camera would).
        #expect(result.stdout.contains("camcast frames encoded: 30 of 30"), "\(result.stdout)")
        for pattern in [
            #"ratio camcast/ffmpeg \(libx265\): cpu \#(number) +wall \#(number) +rss \#(number)"#,
            #"ratio camcast/x264: +cpu \#(number) +wall \#(number) +rss \#(number)"#,
            #"ratio camcast/ffmpeg: +cpu \#(number) +wall \#(number) +rss \#(number)"#,
            #"latency camcast \(capture→socket, ms\): p50 \#(number) +p90 \#(number) +p99 \#(number) +max \#(number)"#,
            // scripts/bench-startup: start→READY=1 over the notify socket, and the settled RSS.
            #"camcast: start→READY=1 \#(number) ms +RSS after 5 s \#(number) MB"#,
            // The recording (issue 28) and the scraped endpoint (issue 24), each paired with a plain run.
            #"ratio record/rtmp: cpu \#(number) +paired_cpu \#(number)"#,
            #"paired_cpu scraped/unscraped \#(number), difference -?\#(number) % of one core"#,
            #"http threads in the scraped run: \#(number)s = \#(number) % of one core"#,
            // scripts/bench-srt: an SRT output to srt-live-transmit against the RTMP output (issue 42).
            #"paired_cpu srt/rtmp \#(number), difference -?\#(number) % of one core"#,
        ] {
            let matches = try NSRegularExpression(pattern: pattern).numberOfMatches(
                in: result.stdout, range: NSRange(result.stdout.startIndex..., in: result.stdout))
            #expect(matches >= 1, "no line matching \(pattern) in:\n\(result.stdout)")
        }
        // Latency with sound (issue 40): the same clip paced with and without the silent AAC track,
        // p50 and p99 of each and the paired difference, all numbers; only what holds at any speed
        // is checked (a run's p99 is at least its p50, and so is the median of them).
        for source in ["none", "silent"] {
            let figures = try Self.numbers(#"audio \#(source): +cpu (\#(number))s +latency p50 (\#(number)) p99 (\#(number)) ms"#, in: result.stdout)
            #expect(figures.count == 3, "no latency figures with audio \(source) in:\n\(result.stdout)")
            if figures.count == 3 { #expect(figures[2] >= figures[1], "audio \(source): p99 below p50: \(figures)") }
        }
        let difference = try Self.numbers(
            #"latency silent − none \(capture→socket, ms, paired\): p50 ([-+]\#(number)) +p99 ([-+]\#(number))"#, in: result.stdout)
        #expect(difference.count == 2, "no paired latency difference in:\n\(result.stdout)")
    }

    /// The numbers `pattern`'s groups capture in its first match in `text`; empty when none matches.
    static func numbers(_ pattern: String, in text: String) throws -> [Double] {
        let regex = try NSRegularExpression(pattern: pattern)
        guard let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return [] }
        return (1..<match.numberOfRanges).compactMap { Range(match.range(at: $0), in: text).flatMap { Double(text[$0]) } }
    }
}
