import Foundation
import TestSupport
import Testing

/// Adaptive bitrate over a real throttled link (tc-tbf in a network namespace of the test's own):
/// the encoder follows what the slowest RTMP output can carry, so frames reach the server instead
/// of being dropped a GOP at a time, and the bitrate climbs back once the link frees.
@Suite(.serialized, .enabled(if: Environment.networkFaultsEnabled, Environment.networkFaultsSkipReason))
struct AdaptiveBitrateTests {
    static let streamKey = ReconnectTests.streamKey
    static let video = ["--size", "640x360", "--fps", "30", "--bitrate", "1200", "--keyint-seconds", "2"]
    /// The token bucket the existing congestion test uses, at 600 kbit/s.
    static let link = (rate: "600kbit", burst: "32kbit", latency: "400ms")

    /// 1200 kbit/s configured; 30 s over a 600 kbit/s link, then 30 s free. Without adaptation
    /// 1366 of 1800 frames arrived (the rest dropped up to the next keyframe, issue 16).
    @Test func theBitrateFollowsAThrottledLinkAndClimbsBackWhenItFrees() throws {
        try #require(Environment.hasNetworkFaultParts, "\(Environment.networkFaultsMissing)")
        let namespace = try NetworkNamespace()
        let server = try RTMPServer(namespace: namespace)
        try namespace.throttle(rate: Self.link.rate, burst: Self.link.burst, latency: Self.link.latency)
        let command = namespace.execPrefix + [Project.camcastBinary.path, "run"] + Self.video + [
            "--duration", "60", "--output", server.url(app: "rec", name: Self.streamKey),
        ]
        let camcast = try ProcessRunner.start(command[0], Array(command.dropFirst()))
        // Stream time 0 is the first frame, a moment after "streaming" is logged.
        try #require(camcast.waitForLog("streaming", timeout: 20), "\(camcast.stderrSoFar)")
        let started = Date()
        Thread.sleep(until: started.addingTimeInterval(30))
        try namespace.removeThrottle()
        let result = try camcast.wait(timeout: 60)
        try server.stop()

        #expect(result.status == 0, "\(result.stderr)")
        ReconnectTests.expectNoKey(result)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let stopped = try #require(lines.first { $0.contains(" stopped ") }, "\(result.stderr)")
        let frames = Int(CamcastLog.value("frames", in: stopped) ?? "") ?? -1
        let lowered = lines.filter { $0.contains("bitrate lowered") }
        #expect(!lowered.isEmpty, "the bitrate was never lowered: \(result.stderr)")

        let unencoded = CamcastLog.unencodedSlots(in: stopped) ?? -1
        let recording = server.recording(Self.streamKey)
        let check = try ResumedStreamCheck(recording, unencodedSlots: unencoded)
        #expect(check.problems.isEmpty, "\(check.problems); \(stopped)")
        let packets = try ProbedVideo.packets(recording)
        // Stream time runs a little behind the wall clock the throttle was lifted by (the
        // first frame comes after "streaming"): one second of margin on each side.
        let throttledEnd = ProbedVideo.kbps(packets, in: 19_000...29_000)
        let freeEnd = ProbedVideo.kbps(packets, in: 50_000...59_900)
        let summary = "received \(packets.count) of \(frames) frames (\(unencoded) skipped at the source or dropped at the encoder); last 10 s throttled \(Int(throttledEnd)) kbit/s, "
            + "last 10 s free \(Int(freeEnd)) kbit/s; changes: \(lowered.count) lowered, "
            + "\(lines.filter { $0.contains("bitrate raised") }.count) raised"
        // Every slot of the 60 s was encoded, or skipped at the source or dropped at the encoder's
        // full queue: how many is the machine's speed (1345 encoded on one loaded core), not the
        // adapter's doing.
        #expect(frames > 0 && abs(frames + unencoded - 60 * 30) <= 2, "\(summary)")
        #expect(Double(packets.count) >= 0.9 * Double(frames), "\(summary)")
        #expect(throttledEnd <= 600, "\(summary)")
        #expect(freeEnd > 1000, "\(summary)")
        print("AdaptiveBitrateTests: \(summary)")
        for line in lines where line.contains("bitrate") { print("AdaptiveBitrateTests log: \(line)") }
    }

    /// The issue-30 case: 1200 kbit/s configured, 400 kbit/s for 60 s, then free. From 10 s on
    /// the bitrate settles: 90 % of the 2-s windows (x264's VBV lets one second reach 1.5× the
    /// rate around a keyframe) carry 60–100 % of the link, no GOP is dropped after the first 5 s,
    /// at most one change per 15 s; once the link frees, the configured rate is back within 30 s.
    @Test func onASteadySlowLinkTheBitrateSettlesAndComesBackWhenItFrees() throws {
        try #require(Environment.hasNetworkFaultParts, "\(Environment.networkFaultsMissing)")
        let namespace = try NetworkNamespace()
        let server = try RTMPServer(namespace: namespace)
        try namespace.throttle(rate: "400kbit", burst: Self.link.burst, latency: Self.link.latency)
        let command = namespace.execPrefix + [Project.camcastBinary.path, "run"] + Self.video + [
            "--duration", "95", "--output", server.url(app: "rec", name: Self.streamKey),
        ]
        let camcast = try ProcessRunner.start(command[0], Array(command.dropFirst()))
        try #require(camcast.waitForLog("streaming", timeout: 20), "\(camcast.stderrSoFar)")
        Thread.sleep(until: Date().addingTimeInterval(60))
        try namespace.removeThrottle()
        let result = try camcast.wait(timeout: 80)
        try server.stop()

        #expect(result.status == 0, "\(result.stderr)")
        ReconnectTests.expectNoKey(result)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let stopped = try #require(lines.first { $0.contains(" stopped ") }, "\(result.stderr)")
        let unencoded = CamcastLog.unencodedSlots(in: stopped) ?? -1
        let recording = server.recording(Self.streamKey)
        let check = try ResumedStreamCheck(recording, unencodedSlots: unencoded)
        #expect(check.problems.isEmpty, "\(check.problems); \(stopped)")
        let packets = try ProbedVideo.packets(recording)

        // Changes on the stream's clock: the log's UTC time after the "streaming" line's.
        let start = try #require(lines.first { $0.contains("streaming") }.flatMap(Self.logSeconds))
        let changes = lines.filter { $0.contains("bitrate lowered") || $0.contains("bitrate raised") }
            .compactMap { line in Self.logSeconds(line).map { (at: $0 - start, line: line) } }
        let settled = changes.filter { (10...60).contains($0.at) }
        // A window the source starved (frames skipped or dropped at the encoder while the machine
        // was loaded: seen once, 126 frames, two windows at 140–160 kbit/s with no change of
        // bitrate) says nothing about the link; it is left out, and most must be judged.
        let windows = stride(from: 10_000, to: 60_000, by: 2000).filter { start in
            unencoded == 0 || packets.count { (start..<start + 2000).contains($0.ptsMilliseconds) } >= 54
        }.map { ProbedVideo.kbps(packets, in: $0...($0 + 2000)) }
        let inBand = windows.count { (240...400).contains($0) }
        // A dropped GOP leaves a hole of most of a GOP (2 s) in the recording's timestamps; a
        // frame skipped at the source or dropped at the encoder, one frame interval.
        let holes = zip(packets, packets.dropFirst()).filter { $0.0.dtsMilliseconds >= 5000 && $0.1.dtsMilliseconds - $0.0.dtsMilliseconds > 500 }
            .map { "\($0.0.dtsMilliseconds)…\($0.1.dtsMilliseconds)" }
        let backAt = changes.first { $0.at > 58 && $0.line.contains("→ 1200 kbit/s") }?.at
        let freeEnd = ProbedVideo.kbps(packets, in: 90_000...94_000)
        let summary = "windows in 240–400 kbit/s: \(inBand) of \(windows.count) judged (\(windows.map { Int($0) })); "
            + "changes in 10–60 s: \(settled.count) at \(settled.map { Int($0.at) }); holes after 5 s: \(holes); "
            + "back at 1200 at \(backAt.map { String(format: "%.1f", $0) } ?? "never") s; 90–94 s: \(Int(freeEnd)) kbit/s; "
            + "\(packets.count) frames (\(unencoded) skipped at the source or dropped at the encoder)"
        print("AdaptiveBitrateTests 400: \(summary)")
        for change in changes { print("AdaptiveBitrateTests 400 log: \(String(format: "%5.1f", change.at)) \(change.line)") }
        #expect(windows.count >= 20, "\(summary)")
        #expect(Double(inBand) >= 0.9 * Double(windows.count), "\(summary)")
        #expect(holes.isEmpty, "\(summary)")
        #expect(settled.count <= 50 / 15, "\(summary)")
        #expect((backAt ?? .infinity) <= 90, "\(summary)")
        #expect(freeEnd >= 1000, "\(summary)")
    }

    /// Seconds of the day from a log line's leading UTC timestamp (`2026-11-26T04:00:16.123Z`).
    static func logSeconds(_ line: String) -> Double? {
        guard let t = line.firstIndex(of: "T") else { return nil }
        let clock = line[line.index(after: t)...].prefix { $0 != "Z" && $0 != " " }.split(separator: ":")
        guard clock.count == 3, let h = Double(clock[0]), let m = Double(clock[1]), let s = Double(clock[2]) else { return nil }
        return h * 3600 + m * 60 + s
    }

    /// Two RTMP outputs, only one of them throttled: the encoder runs at what the slow one
    /// carries (both recordings show it), and neither output drops a GOP.
    @Test func withTwoOutputsTheEncoderFollowsTheSlowOneAndNeitherDrops() throws {
        try #require(Environment.hasNetworkFaultParts, "\(Environment.networkFaultsMissing)")
        let namespace = try NetworkNamespace()
        let fast = try RTMPServer(namespace: namespace)
        let slow = try RTMPServer(namespace: namespace)
        try namespace.throttle(port: slow.port, rate: Self.link.rate, burst: Self.link.burst, latency: Self.link.latency)
        // TCP over this bucket has moments (a loss burst, a retransmission timeout) when it carries
        // barely 250 kbit/s; a floor below that lets the encoder follow those too. With the default
        // floor (300) such a moment is below the floor, where a GOP drop is the designed last resort.
        let command = namespace.execPrefix + [Project.camcastBinary.path, "run"] + Self.video + [
            "--min-bitrate", "100", "--duration", "40", "--output", fast.url(app: "rec", name: Self.streamKey),
            "--output", slow.url(app: "rec", name: Self.streamKey),
        ]
        let result = try ProcessRunner.run(command[0], Array(command.dropFirst()), timeout: 90)
        try fast.stop()
        try slow.stop()

        #expect(result.status == 0, "\(result.stderr)")
        ReconnectTests.expectNoKey(result)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        for line in lines where line.contains("bitrate") || line.contains("RTMP publishing") { print("AdaptiveBitrateTests log: \(line)") }
        let ended = lines.filter { $0.contains("RTMP output ended") }
        #expect(ended.count == 2, "\(result.stderr)")
        for line in ended {
            #expect(CamcastLog.value("dropped", in: line) == "0", "no GOP dropped: \(line)")
            #expect(CamcastLog.value("overflows", in: line) == "0", "\(line)")
        }
        let lowered = lines.filter { $0.contains("bitrate lowered") }
        #expect(!lowered.isEmpty, "\(result.stderr)")
        // The change names the slow output (by its redacted URL, never its key).
        #expect(lowered.allSatisfy { $0.contains(":\(slow.port)/") }, "\(lowered)")

        let stopped = lines.first { $0.contains(" stopped ") } ?? ""
        let unencoded = CamcastLog.unencodedSlots(in: stopped) ?? -1
        for server in [fast, slow] {
            let recording = server.recording(Self.streamKey)
            let check = try ResumedStreamCheck(recording, unencodedSlots: unencoded)
            #expect(check.problems.isEmpty, "\(check.problems); \(stopped)")
            let packets = try ProbedVideo.packets(recording)
            let lastTen = ProbedVideo.kbps(packets, in: 29_000...39_000)
            // The fast output gets what the slow link carries, not the configured 1200.
            #expect(lastTen <= 600, "port \(server.port): last 10 s at \(Int(lastTen)) kbit/s, \(packets.count) frames")
            print("AdaptiveBitrateTests: port \(server.port) received \(packets.count) frames, last 10 s \(Int(lastTen)) kbit/s")
        }
    }
}
