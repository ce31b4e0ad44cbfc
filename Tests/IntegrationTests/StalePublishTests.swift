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
        let syns = try SYNWatch(port: server.port, namespace: namespace)
        defer { syns.process.stop() }
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
        let sessionEnded = Self.waitForDisconnect(of: session, in: server, timeout: 60)
        // nginx's own time to end a session its client resets, on this machine under this load,
        // seen through the same polling of its log (the longest of three): the bound below is
        // scaled from it.
        let dropTime = try (0..<3).map { _ in try Self.timeToDropAResetConnection(server: server, namespace: namespace) }.max() ?? 0
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
        // nginx's ping (20–40 s after the hole began) did not end it: Camcast's first SYN after
        // the path's return did, from the dead connection's port (the kernel's own timestamps of
        // the SYNs reaching the server's loopback, SYNWatch). nginx ends the session as fast as
        // it ends any reset connection (the SYN, its challenge ACK and the RST cross loopback in
        // microseconds): within twice the drop time measured above (a loaded machine's
        // scheduling varies from one moment to the next) and two of this test's 20 ms polls.
        let seen = try syns.stop()
        let firstPort = try #require(seen.first?.port, "no SYN seen")
        let firstAfter = try #require(seen.first { $0.time >= holeEnded.timeIntervalSince1970 }, "no SYN after the hole: \(seen)")
        #expect(firstAfter.port == firstPort, "the first SYN after the hole came from port \(firstAfter.port), the dead connection's was \(firstPort)")
        let bound = firstAfter.time - holeEnded.timeIntervalSince1970 + 2 * dropTime + 0.04
        print("stale publish: first SYN \(String(format: "%.2f", firstAfter.time - holeEnded.timeIntervalSince1970)) s after the hole, "
              + "nginx drops a reset connection in \(String(format: "%.3f", dropTime)) s: bound \(String(format: "%.2f", bound)) s")
        #expect(ended.timeIntervalSince(holeEnded) <= bound,
                "nginx ended the old session \(ended.timeIntervalSince(holeEnded)) s after the hole, more than \(bound) s: \(seen)")
        // And that SYN came within a connect attempt (--connect-timeout 3) and a cheap wait (the
        // longest `retry_in` logged) of the path's return.
        let waits = result.stderr.split(separator: "\n").filter { $0.contains("retry_in=") }
            .compactMap { CamcastLog.value("retry_in", in: String($0)).flatMap { Double($0.dropLast()) } }
        let attemptAndWait = 3 + (waits.max() ?? 0)
        #expect(firstAfter.time - holeEnded.timeIntervalSince1970 <= attemptAndWait,
                "the first SYN came \(firstAfter.time - holeEnded.timeIntervalSince1970) s after the hole, more than \(attemptAndWait) s")
        // Every "already publishing" on the way was retried on the cheap waits (≤ 2 s).
        for line in result.stderr.split(separator: "\n") where line.contains("RTMP connect failed") && line.contains("already publishing") {
            let wait = Double(CamcastLog.value("retry_in", in: String(line))?.dropLast() ?? "") ?? 99
            #expect(wait <= 2.0, "\(line)")
        }
        #expect(result.status == 0)
        ReconnectTests.expectNoKey(result)
    }

    /// When the test first sees `session`'s "disconnect" in nginx's log (polled every 20 ms).
    static func waitForDisconnect(of session: String, in server: RTMPServer, timeout: Double) -> Date? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if server.errorLog().contains("\(session) disconnect") { return Date() }
            usleep(20_000)
        }
        return nil
    }

    /// Seconds from a client's RST (a TCP connection closed with SO_LINGER 0 from inside the
    /// namespace, as Camcast's kernel answers the challenge ACK) to the test seeing nginx's
    /// "disconnect" for it.
    static func timeToDropAResetConnection(server: RTMPServer, namespace: NetworkNamespace) throws -> Double {
        let connected = /(\*\d+) client connected/
        let before = Set(server.errorLog().matches(of: connected).map { String($0.1) })
        // Half a second connected (nginx accepts it and opens a session), then the reset; the
        // probe prints the moment of its RST.
        let probe = try ProcessRunner.start("/usr/bin/env", namespace.execPrefix + [
            "python3", "-c",
            """
            import socket, struct, time
            s = socket.create_connection(("\(server.host)", \(server.port)))
            time.sleep(0.5)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()
            print(repr(time.time()), flush=True)
            """,
        ])
        defer { probe.stop() }
        var seen: Date?
        let deadline = Date().addingTimeInterval(20)
        while seen == nil && Date() < deadline {
            let log = server.errorLog()
            let sessions = log.matches(of: connected).map { String($0.1) }.filter { !before.contains($0) }
            if sessions.contains(where: { log.contains("\($0) disconnect") }) { seen = Date() } else { usleep(20_000) }
        }
        let dropped = try #require(seen, "nginx never dropped the reset probe: \(server.errorLog())")
        let result = try probe.wait(timeout: 20)
        let reset = try #require(Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "the probe said: \(result.stdout) \(result.stderr)")
        return dropped.timeIntervalSince1970 - reset
    }
}
