import Foundation
import TestSupport
import Testing

/// After a black hole on the path, nginx-rtmp still holds the publish Camcast cut as dead (nothing
/// crossed the hole) and would answer "already publishing" until it ends that session. Camcast
/// reconnects from the dead connection's port (`AbandonedConnections`: nginx's challenge ACK draws
/// a RST that ends the old session as soon as the path is back), retries "already publishing" on
/// the cheap waits (`ReconnectSchedule.stalePublishWindowSeconds`), and must publish again within
/// 2.5 s of nginx ending the old session (its error log says `*N disconnect`).
@Suite(.serialized, .enabled(if: Environment.networkFaultsEnabled, Environment.networkFaultsSkipReason))
struct StalePublishTests {
    static let holeSeconds: UInt32 = 8

    @Test(.timeLimit(.minutes(2)))
    func afterABlackHoleCamcastPublishesAgainAsSoonAsTheServerLetsTheOldSessionGo() throws {
        try #require(Environment.hasNetworkFaultParts, "\(Environment.networkFaultsMissing)")
        let namespace = try NetworkNamespace()
        // No drop_idle_publisher: only what crosses the path once it is back may end the session.
        // nginx pings a publisher 20 s after its last data (the hole's start), some seconds after
        // the hole ends: Camcast meets "already publishing" until then. ping_timeout 60s: nginx's
        // own timeout would end the session only long after the test.
        let server = try RTMPServer(environment: ["RTMP_PING": "20s", "RTMP_PING_TIMEOUT": "60s"], namespace: namespace)
        let camcast = try ReconnectTests.startCamcast(
            ["--output", server.url(app: "live", name: ReconnectTests.streamKey), "--send-timeout", "2", "--connect-timeout", "3"],
            namespace: namespace)
        defer { camcast.signal(SIGKILL) }
        try #require(camcast.waitForLog("RTMP publishing", timeout: 20), "\(camcast.stderrSoFar)")
        let publishLine = server.errorLog().split(separator: "\n").first { $0.contains("publish: name=") }.map(String.init) ?? ""
        let session = try #require(publishLine.split(separator: " ").first { $0.hasPrefix("*") }.map(String.init), "\(publishLine)")
        usleep(1_000_000)

        try namespace.blackHole(port: server.port)
        let cut = camcast.waitForLog("RTMP connection lost", timeout: 15)
        usleep(Self.holeSeconds * 1_000_000)
        try namespace.removeBlackHole()
        let holeEnded = Date()

        // The moment nginx ends the old session, seen as it happens (its log has whole seconds).
        var sessionEnded: Date?
        let deadline = Date().addingTimeInterval(60)
        while sessionEnded == nil && Date() < deadline {
            if server.errorLog().contains("\(session) disconnect") { sessionEnded = Date() } else { usleep(20_000) }
        }
        let reconnected = camcast.waitForLog("RTMP reconnected", timeout: 30)
        let result = try ReconnectTests.stop(camcast)

        #expect(cut, "\(result.stderr)")
        let ended = try #require(sessionEnded, "nginx never ended the old session \(session): \(server.errorLog())")
        #expect(reconnected, "\(result.stderr)")
        let publishedLine = result.stderr.split(separator: "\n").first { $0.contains("RTMP reconnected") }.map(String.init) ?? ""
        let published = try #require(CamcastLog.time(of: publishedLine), "\(publishedLine)")
        let afterServer = published.timeIntervalSince(ended)
        print("stale publish: hole end → nginx ended the old session \(String(format: "%.2f", ended.timeIntervalSince(holeEnded))) s, "
              + "→ published \(String(format: "%.2f", published.timeIntervalSince(holeEnded))) s "
              + "(\(String(format: "%.2f", afterServer)) s after the server let go; "
              + "\(result.stderr.components(separatedBy: "already publishing").count - 1) \"already publishing\" refusals before)")
        #expect(afterServer <= 2.5, "published \(afterServer) s after nginx ended the old session: \(result.stderr)")
        // nginx's ping (20–40 s after the hole began) did not end it: Camcast's first SYN from the
        // dead connection's port did, within a connect attempt and a cheap wait of the path's return.
        #expect(ended.timeIntervalSince(holeEnded) < 8, "nginx ended the old session \(ended.timeIntervalSince(holeEnded)) s after the hole")
        // Every "already publishing" on the way was retried on the cheap waits (≤ 2 s).
        for line in result.stderr.split(separator: "\n") where line.contains("RTMP connect failed") && line.contains("already publishing") {
            let wait = Double(CamcastLog.value("retry_in", in: String(line))?.dropLast() ?? "") ?? 99
            #expect(wait <= 2.0, "\(line)")
        }
        #expect(result.status == 0)
        ReconnectTests.expectNoKey(result)
    }
}
