import Foundation
import TestSupport
import Testing

/// Dead peers that never close the connection: a black-holed link and a server that stops
/// reading. camcast must notice within the send timeout (+2 s) and reconnect once the path is
/// back. nginx and camcast run inside a network namespace of the test's own, so the nftables rule
/// touches nothing else on the machine.
@Suite(.serialized, .enabled(if: Environment.networkFaultsEnabled, Environment.networkFaultsSkipReason))
struct NetworkFaultTests {
    static let streamKey = ReconnectTests.streamKey
    static let sendTimeout = 2.0

    @Test func blackHoledConnectionIsDetectedWithinTheSendTimeoutAndResumed() throws {
        try #require(Environment.hasNetworkFaultParts, "\(Environment.networkFaultsMissing)")
        let namespace = try NetworkNamespace()
        // The stale publish that the black hole leaves on the server holds the stream name; let
        // nginx free it soon, as ingest servers do after their own timeout.
        let server = try RTMPServer(environment: ["RTMP_DROP_IDLE_PUBLISHER": "3s"], namespace: namespace)
        let camcast = try ReconnectTests.startCamcast(
            ["--output", server.url(app: "live", name: Self.streamKey), "--send-timeout", "\(Int(Self.sendTimeout))"],
            namespace: namespace)
        try #require(camcast.waitForLog("RTMP publishing", timeout: 20), "\(camcast.stderrSoFar)")
        usleep(2_000_000)

        try namespace.blackHole(port: server.port)
        let holeStarted = Date()
        let detected = camcast.waitForLog("RTMP connection lost", timeout: 15)
        let detectionSeconds = Date().timeIntervalSince(holeStarted)
        usleep(1_000_000)
        try namespace.removeBlackHole()
        let reconnected = camcast.waitForLog("RTMP reconnected", timeout: 25)
        usleep(1_000_000)
        let result = try ReconnectTests.stop(camcast)

        #expect(detected, "\(result.stderr)")
        #expect(detectionSeconds <= Self.sendTimeout + 2, "detected after \(detectionSeconds) s")
        let lost = result.stderr.split(separator: "\n").first { $0.contains("RTMP connection lost") }.map(String.init) ?? ""
        #expect(lost.contains("timed out"), "reported as a timeout: \(lost)")
        #expect(reconnected, "\(result.stderr)")
        // The server may still hold the dead publish for a moment: that refusal is named as such.
        for line in result.stderr.split(separator: "\n") where line.contains("RTMP connect failed") && line.contains("BadName") {
            #expect(line.contains("already publishing"), "\(line)")
        }
        #expect(result.status == 0)
        ReconnectTests.expectNoKey(result)
    }

    @Test func aServerThatStopsReadingIsDetectedByLackOfProgress() throws {
        try #require(Environment.hasNetworkFaultParts, "\(Environment.networkFaultsMissing)")
        let server = try RTMPServer(environment: ["RTMP_DROP_IDLE_PUBLISHER": "3s"])
        let camcast = try ReconnectTests.startCamcast([
            "--output", server.url(app: "live", name: Self.streamKey), "--send-timeout", "\(Int(Self.sendTimeout))",
            "--bitrate", "1500",
        ])
        try #require(camcast.waitForLog("RTMP publishing", timeout: 20), "\(camcast.stderrSoFar)")
        usleep(2_000_000)

        // A paused relay: its kernel keeps ACKing until the receive window is full, then nothing.
        let workers = try server.workerPIDs()
        try #require(!workers.isEmpty, "no nginx worker")
        workers.forEach { kill($0, SIGSTOP) }
        let paused = Date()
        let detected = camcast.waitForLog("RTMP connection lost", timeout: 30)
        let detectionSeconds = Date().timeIntervalSince(paused)
        workers.forEach { kill($0, SIGCONT) }
        let reconnected = camcast.waitForLog("RTMP reconnected", timeout: 25)
        usleep(1_000_000)
        let result = try ReconnectTests.stop(camcast)

        #expect(detected, "\(result.stderr)")
        // The receive window (a few hundred kB) fills within a second or two at this bitrate.
        #expect(detectionSeconds <= Self.sendTimeout + 2 + 2, "detected after \(detectionSeconds) s")
        let lost = result.stderr.split(separator: "\n").first { $0.contains("RTMP connection lost") }.map(String.init) ?? ""
        #expect(lost.contains("acknowledged nothing"), "detected by lack of progress: \(lost)")
        #expect(reconnected, "\(result.stderr)")
        #expect(result.status == 0)
        ReconnectTests.expectNoKey(result)
    }
}
