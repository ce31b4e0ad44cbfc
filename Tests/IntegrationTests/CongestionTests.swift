import Foundation
import TestSupport
import Testing

/// A link slower than the stream (tc-tbf in a network namespace of the test's own): the send
/// queue must stay bounded, drop only runs of frames that end at a keyframe, and count them.
@Suite(.serialized, .enabled(if: Environment.networkFaultsEnabled, Environment.networkFaultsSkipReason))
struct CongestionTests {
    static let streamKey = ReconnectTests.streamKey

    @Test func aLinkSlowerThanTheBitrateDropsWholeRunsUpToAKeyframe() throws {
        try #require(Environment.hasNetworkFaultParts, "\(Environment.networkFaultsMissing)")
        let namespace = try NetworkNamespace()
        let server = try RTMPServer(namespace: namespace)
        try namespace.throttle(rate: "300kbit", burst: "32kbit", latency: "400ms")
        let command = namespace.execPrefix + [
            // A floor above the link: adaptive bitrate goes no lower, and the queue's drop up to
            // the next keyframe stays the last resort below it.
            Project.camcastBinary.path, "run", "--size", "640x360", "--fps", "30", "--bitrate", "1000", "--min-bitrate", "800",
            "--keyint-seconds", "2", "--duration", "20", "--output", server.url(app: "rec", name: Self.streamKey),
        ]
        let result = try ProcessRunner.run(command[0], Array(command.dropFirst()), timeout: 60)
        try server.stop()

        #expect(result.status == 0, "\(result.stderr)")
        ReconnectTests.expectNoKey(result)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let ended = try #require(lines.first { $0.contains("RTMP output ended") }, "\(result.stderr)")
        let stopped = try #require(lines.first { $0.contains(" stopped ") }, "\(result.stderr)")
        let dropped = Int(CamcastLog.value("dropped", in: ended) ?? "") ?? -1
        let discarded = Int(CamcastLog.value("discarded", in: ended) ?? "") ?? -1
        let frames = Int(CamcastLog.value("frames", in: stopped) ?? "") ?? -1
        let peak = Int(CamcastLog.value("peak_queue_ms", in: ended) ?? "") ?? -1
        #expect(dropped > 0, "a 1000 kbit/s stream over 300 kbit/s must drop: \(ended)")
        #expect(CamcastLog.value("dropped", in: stopped) == String(dropped), "the run's last line reports the drops")
        #expect((0...2034).contains(peak), "the queue holds at most 2 s (+1 frame): \(ended)")
        #expect(!result.stderr.contains("RTMP connection lost"), "congestion is not a dead peer: \(result.stderr)")

        let recording = server.recording(Self.streamKey)
        let unencoded = CamcastLog.unencodedSlots(in: stopped) ?? -1
        let check = try ResumedStreamCheck(recording, unencodedSlots: unencoded)
        #expect(check.problems.isEmpty, "\(check.problems)")
        // Every frame is accounted for: received, dropped by the queue, or discarded at stop.
        #expect(abs(check.packets + dropped + discarded - frames) <= 2,
                "received \(check.packets) + dropped \(dropped) + discarded \(discarded) vs \(frames) encoded")
    }
}
