import Foundation
import TestSupport
import Testing

/// A group whose legs leave by two uplinks (issue 43): the primary by ua0, the backup by ub0
/// (`UplinkTestbed`'s two veth paths to a server namespace with two nginx-rtmp). A black hole on
/// ua0 (nftables drops everything the client sends by it: no reset, no error, the link simply
/// carries nothing) moves a failover output to the backup; with both legs, the leg on ub0 keeps
/// every encoded picture. Judged from nginx's recordings against an FLV reference of the same run
/// (`HashedPackets`), with ffprobe.
@Suite(.serialized, .enabled(if: Environment.networkFaultsEnabled, Environment.networkFaultsSkipReason))
struct UplinkFailoverTests {
    static let streamKey = "uplink-failover-key-77"
    static let keyframeSeconds = 2

    struct Run {
        let testbed: UplinkTestbed
        let primary: RTMPServer
        let backup: RTMPServer
        let camcast: RunningProcess
        let reference: URL

        init(mode: String, extra: String = "") throws {
            testbed = try UplinkTestbed()
            let environment = ["RTMP_LISTEN": UplinkTestbed.serverAddress, "RTMP_RECORD_UNIQUE": "on"]
            primary = try RTMPServer(environment: environment, namespace: testbed.server)
            backup = try RTMPServer(environment: environment, namespace: testbed.server)
            let dir = try Project.scratchDirectory("uplink-failover")
            reference = dir.appendingPathComponent("reference.flv")
            let config = dir.appendingPathComponent("camcast.yaml")
            func url(_ server: RTMPServer) -> String { "rtmp://\(UplinkTestbed.serverAddress):\(server.port)/rec/\(UplinkFailoverTests.streamKey)" }
            try """
                source:
                  type: testpattern
                  size: 320x180
                encoder:
                  bitrate_kbps: 400
                  keyframe_interval_seconds: \(UplinkFailoverTests.keyframeSeconds)
                outputs:
                  - urls:
                      - {url: "\(url(primary))", interface: ua0}
                      - {url: "\(url(backup))", interface: ub0}
                    mode: \(mode)
                \(extra)  - path: "\(reference.path)"
                network:
                  connect_timeout_seconds: 2
                  send_timeout_seconds: 4

                """.write(to: config, atomically: true, encoding: .utf8)
            let command = testbed.camcast(["run", "--config", config.path])
            camcast = try ProcessRunner.start(command[0], Array(command.dropFirst()))
        }

        /// Everything the client sends by ua0 is dropped (nothing comes back for it either).
        func blackHoleA() throws {
            try testbed.client.run(["nft", "add", "table", "inet", "hole"])
            try testbed.client.run(["nft", "add", "chain", "inet", "hole", "out", "{ type filter hook output priority 0; }"])
            try testbed.client.run(["nft", "add", "rule", "inet", "hole", "out", "oifname", "\"ua0\"", "drop"])
        }

        func mendA() throws {
            try testbed.client.run(["nft", "delete", "table", "inet", "hole"])
        }

        func stop() throws -> ProcessResult {
            camcast.signal(SIGTERM)
            let result = try camcast.wait(timeout: 40)
            try primary.stop()
            try backup.stop()
            return result
        }
    }

    @Test func aBlackHoledPrimaryUplinkMovesTheStreamToTheBackupUplink() throws {
        try #require(Environment.hasNetworkFaultParts, "\(Environment.networkFaultsMissing)")
        let failoverAfter = 2
        let run = try Run(mode: "failover", extra: "    failover_after_seconds: \(failoverAfter)\n    return_after_seconds: 3600\n")
        try #require(run.camcast.waitForLog("RTMP publishing", timeout: 30), "never published: \(run.camcast.stderrSoFar)")
        usleep(3_000_000)
        try run.blackHoleA()
        let blackHoled = Date()
        let backupStreams = OutputGroupTests.waitUntil(timeout: 30) {
            (try? run.backup.uniqueRecordings(Self.streamKey).first.map(OutputGroupTests.size)) ?? 0 > 4000
        }
        let takeover = Date().timeIntervalSince(blackHoled)
        usleep(3_000_000)
        let result = try run.stop()

        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains(Self.streamKey))
        // The promise, counted from the black hole (no error tells camcast of it: the leg is
        // down from its last acknowledgement).
        #expect(backupStreams && takeover <= Double(failoverAfter) + 2.5, "the backup had pictures \(takeover) s after the black hole\n\(result.stderr)")
        let reference = try HashedPackets(run.reference)
        let before = try run.primary.uniqueRecordings(Self.streamKey)
        let after = try run.backup.uniqueRecordings(Self.streamKey)
        try #require(before.count == 1 && after.count == 1, "recordings: \(before) \(after)")
        let first = try reference.locate(HashedPackets(before[0]))
        let second = try reference.locate(HashedPackets(after[0]))
        #expect(first.problems.isEmpty && second.problems.isEmpty, "\(first.problems) \(second.problems)")
        #expect(second.startsWithKeyframe)
        let hole = reference.longestMissingMilliseconds(covered: [first, second])
        #expect(hole <= (failoverAfter + Self.keyframeSeconds) * 1000, "\(hole) ms of pictures reached no server")
    }

    @Test func withBothLegsABlackHoledUplinkCostsTheOtherLegNothing() throws {
        try #require(Environment.hasNetworkFaultParts, "\(Environment.networkFaultsMissing)")
        let run = try Run(mode: "both")
        try #require(run.camcast.waitForLog("RTMP publishing", count: 2, timeout: 30), "never published twice: \(run.camcast.stderrSoFar)")
        usleep(2_000_000)
        try run.blackHoleA()
        // Past the send timeout: the leg on ua0 is cut and retries into the black hole.
        usleep(7_000_000)
        try run.mendA()
        let resumed = run.camcast.waitForLog("RTMP reconnected", timeout: 30)
        usleep(2_000_000)
        let result = try run.stop()

        #expect(result.status == 0, "\(result.stderr)")
        #expect(resumed, "the leg on ua0 never came back: \(result.stderr)")
        let reference = try HashedPackets(run.reference)
        let onB = try run.backup.uniqueRecordings(Self.streamKey)
        try #require(onB.count == 1, "the leg on ub0 published more than once: \(onB)")
        let whole = try reference.locate(HashedPackets(onB[0]))
        #expect(whole.problems.isEmpty, "\(whole.problems)")
        #expect(whole.first == 0 && whole.last == reference.packets.count - 1 && whole.count == reference.packets.count,
                "the leg on ub0 has #\(whole.first)…#\(whole.last), \(whole.count) of \(reference.packets.count) pictures")
    }
}
