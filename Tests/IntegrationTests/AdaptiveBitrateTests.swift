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
    /// 1366 of 1800 frames arrived (the rest dropped up to the next keyframe, issue 16). With it,
    /// every picture the encoder made reaches the server.
    @Test func theBitrateFollowsAThrottledLinkAndClimbsBackWhenItFrees() throws {
        try #require(Environment.hasNetworkFaultParts, "\(Environment.networkFaultsMissing)")
        let namespace = try NetworkNamespace()
        let server = try RTMPServer(namespace: namespace)
        let reference = try Project.scratchDirectory("abr-600").appendingPathComponent("encoded.flv")
        try namespace.throttle(rate: Self.link.rate, burst: Self.link.burst, latency: Self.link.latency)
        let command = namespace.execPrefix + [Project.camcastBinary.path, "run"] + Self.video + [
            "--duration", "60", "--output", server.url(app: "rec", name: Self.streamKey), "--output", reference.path,
        ]
        let camcast = try ProcessRunner.start(command[0], Array(command.dropFirst()))
        // Stream time 0 is the first picture, captured before the server recorded it: lifted 30 s
        // after the test saw that picture, the throttle covered at least the first 30 s of stream time.
        let firstSeen = try #require(server.firstPictureRecorded(Self.streamKey, timeout: 20), "\(camcast.stderrSoFar)")
        Thread.sleep(until: firstSeen.addingTimeInterval(30))
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
        let delivered = try DeliveredPictures(recording: recording, reference: reference)
        let packets = try ProbedVideo.packets(recording)
        // The throttle covered stream time 0–30 s at least (above): its last 10 s, one second
        // before its end; the free link's last 10 s.
        let throttledEnd = ProbedVideo.kbps(packets, in: 19_000...29_000)
        let freeEnd = Self.encoderKbps(packets, in: 50_000...59_900)
        let summary = "\(delivered.summary); \(frames) frames encoded, \(unencoded) slots skipped at the source or dropped at the encoder; "
            + "last 10 s throttled \(Int(throttledEnd)) kbit/s, last 10 s free \(Int(freeEnd)) kbit/s per picture × 30; changes: \(lowered.count) lowered, "
            + "\(lines.filter { $0.contains("bitrate raised") }.count) raised"
        print("AdaptiveBitrateTests 600: \(summary)")
        for line in lines where line.contains("bitrate") { print("AdaptiveBitrateTests 600 log: \(line)") }
        // Every slot of the 60 s was encoded, or skipped at the source or dropped at the encoder's
        // full queue: how many is the machine's speed (1345 encoded on one loaded core), not the
        // adapter's doing.
        #expect(frames > 0 && abs(frames + unencoded - 60 * 30) <= 2, "\(summary)")
        // Every picture the encoder made reached the server, from the first to the last, and not
        // one GOP was dropped on the way: judged against the run's own file output, picture by
        // picture, so the source's skips on a loaded machine excuse nothing here.
        #expect(delivered.lost.isEmpty, "a GOP dropped: \(summary)")
        #expect(delivered.problems.isEmpty, "\(summary)")
        #expect(delivered.missingAtStart == 0 && delivered.missingAtEnd == 0, "\(summary)")
        #expect(throttledEnd <= 600, "\(summary)")
        #expect(freeEnd > 1000, "\(summary)")
    }

    /// The field trial's case (issues 30 and 41): 1200 kbit/s configured, the link free for 5 s
    /// from the first picture, 400 kbit/s for the next 60 s, then free. Claims: from 10 s after
    /// the throttle begins to its end, 90 % of the 2-s windows (x264's VBV lets one second reach
    /// 1.5× the rate around a keyframe) carry 60–100 % of the link, and any two bitrate changes
    /// are 15 s apart or more; no GOP is dropped on the free link, at most one in the throttle's
    /// first 5 s (what waits was encoded at the old rate, README "Last resort"), none after; once
    /// the link frees, the configured rate is back within 30 s.
    @Test func onASteadySlowLinkTheBitrateSettlesAndComesBackWhenItFrees() throws {
        try #require(Environment.hasNetworkFaultParts, "\(Environment.networkFaultsMissing)")
        let namespace = try NetworkNamespace()
        let server = try RTMPServer(namespace: namespace)
        let reference = try Project.scratchDirectory("abr-400").appendingPathComponent("encoded.flv")
        // The throttle's MTU from the start: the connection's segment size must not change under it.
        try namespace.run(["ip", "link", "set", "lo", "mtu", "1500"])
        let command = namespace.execPrefix + [Project.camcastBinary.path, "run"] + Self.video + [
            "--duration", "100", "--output", server.url(app: "rec", name: Self.streamKey), "--output", reference.path,
        ]
        let launched = Date()
        let camcast = try ProcessRunner.start(command[0], Array(command.dropFirst()))
        let firstSeen = try #require(server.firstPictureRecorded(Self.streamKey, timeout: 20), "\(camcast.stderrSoFar)")
        Thread.sleep(until: firstSeen.addingTimeInterval(5))
        let throttled = Date()
        try namespace.throttle(rate: "400kbit", burst: Self.link.burst, latency: Self.link.latency)
        Thread.sleep(until: firstSeen.addingTimeInterval(65))
        let freed = Date()
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
        let delivered = try DeliveredPictures(recording: recording, reference: reference)
        let packets = try ProbedVideo.packets(recording)

        // Every time in seconds after the launch, on the machine's one wall clock (the log's UTC
        // stamps and the test's Dates). The first picture (stream time 0) was captured after the
        // launch and before the test saw it recorded: at `firstCapture` ∈ [0, seenAt]. A picture
        // of stream time s was captured at s + firstCapture, so a bound on when it was made
        // reads s against the side of that interval that cannot blame the product wrongly.
        let seenAt = firstSeen.timeIntervalSince(launched)
        let throttleStart = throttled.timeIntervalSince(launched)
        let throttleEnd = freed.timeIntervalSince(launched)
        let changes = lines.filter { $0.contains("bitrate lowered") || $0.contains("bitrate raised") }
            .compactMap { line in CamcastLog.time(of: line).map { (at: $0.timeIntervalSince(launched), line: line) } }
        let settledPart = (throttleStart + 10)...throttleEnd
        let settled = changes.filter { settledPart.contains($0.at) }
        let spacings = zip(settled, settled.dropFirst()).map { $0.1.at - $0.0.at }
        // The 2-s windows of stream time made wholly inside the settled part: from its start
        // (firstCapture ≥ 0) to its end less `seenAt` (firstCapture ≤ seenAt). A window the source
        // starved (frames it skipped on a loaded machine: seen once, two windows at 140–160 kbit/s
        // with no change of bitrate) says nothing about the link: only windows the recording holds
        // 90 % of the frames of (54 of 60) are judged, and most must be.
        let windowStarts = stride(from: Int(settledPart.lowerBound * 1000), through: Int((throttleEnd - seenAt) * 1000) - 2000, by: 2000)
        // What a window carried may not exceed the link (400); its lower bound (60 %) is judged
        // per picture (encoderKbps), as the source's skips lower what a second carries.
        let windows = windowStarts.filter { start in
            packets.count { (start..<start + 2000).contains($0.ptsMilliseconds) } >= 54
        }.map { (carried: ProbedVideo.kbps(packets, in: $0...($0 + 2000)), encoder: Self.encoderKbps(packets, in: $0...($0 + 2000))) }
        let inBand = windows.count { $0.carried <= 400 && $0.encoder >= 240 }
        // Pictures lost on the way (DeliveredPictures: against the run's own file output, so the
        // source's skips are no loss). An overflow after the throttle began loses the pictures
        // waiting then and the ones after it up to the keyframe that follows; the last of them
        // was queued after the overflow, a picture's capture→queue time after its capture, which
        // `seenAt` exceeds by the first picture's (capture→server). So a run whose last picture
        // was made before the throttle even with firstCapture = seenAt was lost on the free link.
        let onTheFreeLink = delivered.lost.filter { Double($0.lastMilliseconds) / 1000 + seenAt < throttleStart }
        // The throttle's start may cost one GOP (README, "Last resort"): what waited in the send
        // queue then, and what was encoded at the old rate until the first lowering, drains at the
        // link's 400 kbit/s ahead of everything after it, and the 2-s queue may overflow while that
        // backlog lasts. Its end, from this run: every byte the encoder made (the file output)
        // from 2 s (the queue's bound) before the throttle to the first lowering, at 400 kbit/s,
        // after that lowering (generous: stream times from seenAt earlier). A run whose first
        // picture was made after that even with firstCapture = 0 came after the start. A fixed
        // 5 s stood here, which a run on a busy machine missed once: a GOP lost from 6.3 s into
        // the throttle, inside this bound (its backlog, 2.7 s at 1200 kbit/s, drains in ~8 s).
        let firstLowering = changes.first { $0.at >= throttleStart && $0.line.contains("bitrate lowered") }?.at ?? throttleEnd
        let backlogBytes = try ProbedVideo.packets(reference).filter { packet in
            let made = Double(packet.ptsMilliseconds) / 1000
            return made >= throttleStart - 2 - seenAt && made <= firstLowering
        }.reduce(0) { $0 + $1.bytes }
        let backlogEnd = firstLowering + Double(backlogBytes) * 8 / 400_000
        let afterTheStart = delivered.lost.filter { Double($0.firstMilliseconds) / 1000 > backlogEnd }
        let backAt = changes.first { $0.at > throttleEnd && $0.line.contains("→ 1200 kbit/s") }?.at
        // The recording's last 4 s: made after the link had been free for 30 s (the run lasts 100 s).
        let lastPicture = packets.last?.ptsMilliseconds ?? 0
        let freeEnd = Self.encoderKbps(packets, in: (lastPicture - 4000)...lastPicture)
        let timing = String(format: "first picture seen at %.1f s; throttled %.1f–%.1f s; ", seenAt, throttleStart, throttleEnd)
        let judged = "windows in 240–400 kbit/s: \(inBand) of \(windows.count) judged (carried/per picture: \(windows.map { "\(Int($0.carried))/\(Int($0.encoder))" })); "
        let spacing = "changes from \(Int(settledPart.lowerBound)) s: \(settled.count) at \(settled.map { Int($0.at) }), spacing \(spacings.map { Int($0) }) s; "
        let back: String = backAt.map { String(format: "%.1f", $0) } ?? "never"
        let end = "back at 1200 at \(back) s; last 4 s: \(Int(freeEnd)) kbit/s per picture × 30; \(packets.count) pictures received, "
            + "\(unencoded) slots skipped at the source or dropped at the encoder; the old rate's backlog drained by "
            + String(format: "%.1f s (first lowering %.1f s)", backlogEnd, firstLowering)
        let summary: String = timing + judged + spacing + delivered.summary + "; " + end
        print("AdaptiveBitrateTests 400: \(summary)")
        for change in changes { print("AdaptiveBitrateTests 400 log: \(String(format: "%5.1f", change.at)) \(change.line)") }
        // Every window left out is explained by the run's own counts: it lacks 7 or more of its
        // 60 pictures, each a slot the source skipped or the encoder dropped (the stop summary)
        // or a picture lost on the way (a dropped GOP, judged below). A fixed number of judged
        // windows (20 of 25) stood here, met on a quiet machine; one starved of CPU (an eighth
        // of it in a cgroup) judged 13, having skipped the rest's pictures.
        let leftOut = Array(windowStarts).count - windows.count
        let lostOnTheWay = delivered.lost.reduce(0) { $0 + $1.pictures }
        #expect(!windows.isEmpty && 7 * leftOut <= max(0, unencoded) + lostOnTheWay, "\(leftOut) windows left out: \(summary)")
        #expect(Double(inBand) >= 0.9 * Double(windows.count), "\(summary)")
        #expect(spacings.allSatisfy { $0 >= 15 }, "at most one change per 15 s: \(summary)")
        #expect(onTheFreeLink.isEmpty, "a GOP dropped before the throttle: \(onTheFreeLink); \(summary)")
        #expect(delivered.lost.count <= 1, "more than one GOP dropped: \(summary)")
        #expect(afterTheStart.isEmpty, "a GOP dropped after the old rate's backlog (\(String(format: "%.1f", backlogEnd)) s): \(afterTheStart); \(summary)")
        #expect(delivered.problems.isEmpty && delivered.missingAtStart == 0 && delivered.missingAtEnd == 0, "\(summary)")
        #expect((backAt ?? .infinity) <= throttleEnd + 30, "\(summary)")
        #expect(freeEnd >= 1000, "\(summary)")
    }

    /// The rate the encoder ran at over `range` (stream time, ms): the bits of the pictures the
    /// recording holds there, per picture, times 30 fps. With zerolatency, x264 budgets each
    /// picture as 1/fps of a second (`b_vfr_input` 0), so slots the source skipped on a loaded
    /// machine lower what a second of the recording carries but not what a picture does: a lower
    /// bound on the bitrate judged this way holds at any speed (1110–1150 kbit/s at a 1200 target
    /// with the test pattern, README "Measured").
    static func encoderKbps(_ packets: [ProbedVideo.Packet], in range: ClosedRange<Int>) -> Double {
        let inside = packets.filter { range.contains($0.ptsMilliseconds) }
        guard !inside.isEmpty else { return 0 }
        return Double(inside.reduce(0) { $0 + $1.bytes }) * 8 / Double(inside.count) * 30 / 1000
    }

    /// Two RTMP outputs, only one of them throttled: the encoder runs at what the slow one
    /// carries (both recordings show it), and neither output drops a GOP.
    @Test func withTwoOutputsTheEncoderFollowsTheSlowOneAndNeitherDrops() throws {
        try #require(Environment.hasNetworkFaultParts, "\(Environment.networkFaultsMissing)")
        let namespace = try NetworkNamespace()
        let fast = try RTMPServer(namespace: namespace)
        let slow = try RTMPServer(namespace: namespace)
        let reference = try Project.scratchDirectory("abr-two").appendingPathComponent("encoded.flv")
        try namespace.throttle(port: slow.port, rate: Self.link.rate, burst: Self.link.burst, latency: Self.link.latency)
        // TCP over this bucket has moments (a loss burst, a retransmission timeout) when it carries
        // barely 250 kbit/s; a floor below that lets the encoder follow those too. With the default
        // floor (300) such a moment is below the floor, where a GOP drop is the designed last resort.
        let command = namespace.execPrefix + [Project.camcastBinary.path, "run"] + Self.video + [
            "--min-bitrate", "100", "--duration", "40", "--output", fast.url(app: "rec", name: Self.streamKey),
            "--output", slow.url(app: "rec", name: Self.streamKey), "--output", reference.path,
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
        let encoded = try HashedPackets(reference)
        for server in [fast, slow] {
            let recording = server.recording(Self.streamKey)
            let check = try ResumedStreamCheck(recording, unencodedSlots: unencoded)
            #expect(check.problems.isEmpty, "\(check.problems); \(stopped)")
            // Not only by camcast's own counts: every picture the encoder made is in the recording.
            let delivered = try DeliveredPictures(recording: recording, encoded: encoded)
            #expect(delivered.lost.isEmpty && delivered.problems.isEmpty, "port \(server.port): \(delivered.summary)")
            let packets = try ProbedVideo.packets(recording)
            let lastTen = ProbedVideo.kbps(packets, in: 29_000...39_000)
            // The fast output gets what the slow link carries, not the configured 1200.
            #expect(lastTen <= 600, "port \(server.port): last 10 s at \(Int(lastTen)) kbit/s, \(packets.count) frames")
            print("AdaptiveBitrateTests: port \(server.port) received \(packets.count) frames, last 10 s \(Int(lastTen)) kbit/s")
        }
    }
}
