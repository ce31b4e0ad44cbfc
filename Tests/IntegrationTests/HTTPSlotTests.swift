import Foundation
import TestSupport
import Testing

/// Slow and idle clients cannot lock the operator out (issue 41): 400 connections held open (200
/// from 127.0.0.1, 10 from each of 127.0.0.2 … 127.0.0.21; half of them a slowloris sending a
/// header line every half second, half sending nothing; each opened again half a second after the
/// server closes it) while a scraper asks for /metrics on a keep-alive connection and /healthz on a
/// new one every second, as Prometheus and a health check do. Every scrape is answered 200 within
/// 1 s (or ten times the slowest scrape before the crowd, on a machine slower than that), the stream to nginx-rtmp loses nothing, and the daemon's RSS (from /proc) stays bounded.
/// On the code before (64 slots, the 65th connection closed at accept) the scrapes failed at once.
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct HTTPSlotTests {
    static let holdSeconds = 30
    static let baselineSeconds = 3

    /// The crowd, in Python (nobody here wrote its sockets): prints one line of JSON at the end,
    /// how many connections it opened and how many the server closed.
    static func crowd(port: Int) -> String {
        """
        import json, select, socket, time
        hosts = ["127.0.0.1"] * 200 + ["127.0.0.%d" % (2 + n // 10) for n in range(200)]
        slots = [{"host": h, "slow": n % 2 == 0, "sock": None, "closed_at": 0.0} for n, h in enumerate(hosts)]
        opened = closed = failed = 0
        end = time.time() + \(holdSeconds)
        while time.time() < end:
            now = time.time()
            for slot in slots:
                if slot["sock"] is None and now - slot["closed_at"] >= 0.5:
                    try:
                        s = socket.create_connection(("127.0.0.1", \(port)), timeout=2, source_address=(slot["host"], 0))
                        s.setblocking(False)
                        if slot["slow"]:
                            s.send(b"GET /metrics HTTP/1.1\\r\\nHost: x\\r\\n")
                        slot["sock"] = s
                        opened += 1
                    except OSError:
                        failed += 1
                        slot["closed_at"] = now
                elif slot["sock"] is not None and slot["slow"]:
                    try:
                        slot["sock"].send(b"X-Slow: 1\\r\\n")
                    except OSError:
                        pass
            live = [slot for slot in slots if slot["sock"] is not None]
            readable, _, _ = select.select([slot["sock"] for slot in live], [], [], 0)
            for slot in live:
                if slot["sock"] in readable:
                    try:
                        data = slot["sock"].recv(65536)
                    except OSError:
                        data = b""
                    if not data:
                        slot["sock"].close()
                        slot["sock"] = None
                        slot["closed_at"] = time.time()
                        closed += 1
            time.sleep(0.5)
        print(json.dumps({"opened": opened, "closed": closed, "failed": failed}))
        """
    }

    /// The operator's scraper: each second /metrics on its keep-alive connection (opened again if
    /// the server closed it) and /healthz on a new one; prints each scrape's status and seconds.
    static func scraper(port: Int, seconds: Int) -> String {
        """
        import http.client, json, time
        results = []
        kept = http.client.HTTPConnection("127.0.0.1", \(port), timeout=5)
        def ask(connection, path):
            start = time.monotonic()
            try:
                connection.request("GET", path)
                response = connection.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException) as error:
                status = 0
            return [path, status, time.monotonic() - start]
        for _ in range(\(seconds)):
            tick = time.monotonic()
            result = ask(kept, "/metrics")
            if result[1] == 0:
                # A keep-alive connection the server closed (its deadline passed between requests):
                # Prometheus' client asks again on a new one; so does this, within the same second.
                kept.close()
                kept = http.client.HTTPConnection("127.0.0.1", \(port), timeout=5)
                retry = ask(kept, "/metrics")
                result = [retry[0], retry[1], result[2] + retry[2]]
            results.append(result)
            fresh = http.client.HTTPConnection("127.0.0.1", \(port), timeout=5)
            results.append(ask(fresh, "/healthz"))
            fresh.close()
            time.sleep(max(0, 1 - (time.monotonic() - tick)))
        print(json.dumps(results))
        """
    }

    @Test func scrapesAreAnsweredWithinASecondWhileHundredsOfSlowConnectionsAreHeld() throws {
        let key = OperatorViewTests.streamKey
        let server = try RTMPServer()
        defer { try? server.stop() }
        let stream = try OperatorStream.start(to: server, key: key)
        let (camcast, port) = (stream.camcast, stream.port)
        defer { camcast.signal(SIGKILL) }
        _ = try OperatorHTTP(port: port).wait("/healthz", timeout: 10) { $0.status == 200 }
        let rssBefore = try #require(ProcessMemory.residentKB(of: camcast.pid))
        // The same scraper for a few seconds before the crowd: how long this machine takes to
        // answer a scrape when nothing holds a slot (the bound below is derived from it).
        let baseline = try ProcessRunner.start("/usr/bin/env", ["python3", "-c", Self.scraper(port: port, seconds: Self.baselineSeconds)])
        let baselineResult = try baseline.wait(timeout: Double(Self.baselineSeconds) + 20)
        let quiet = try #require(try JSONSerialization.jsonObject(with: Data(baselineResult.stdout.utf8)) as? [[Any]], "\(baselineResult.stdout)")
        let quietSlowest = quiet.map { $0[2] as? Double ?? 99 }.max() ?? 99
        #expect(quiet.allSatisfy { $0[1] as? Int == 200 }, "before the crowd: \(quiet)")

        let crowd = try ProcessRunner.start("/usr/bin/env", ["python3", "-c", Self.crowd(port: port)])
        defer { crowd.signal(SIGKILL) }
        // The crowd takes every slot within its first round; the scraper starts after it.
        sleep(3)
        var rssMost = rssBefore
        let scrapeSeconds = Self.holdSeconds - 6
        let scraper = try ProcessRunner.start("/usr/bin/env", ["python3", "-c", Self.scraper(port: port, seconds: scrapeSeconds)])
        while !scraper.hasExited {
            rssMost = max(rssMost, ProcessMemory.residentKB(of: camcast.pid) ?? 0)
            usleep(500_000)
        }
        let scraped = try scraper.wait(timeout: 10)
        let crowdResult = try crowd.wait(timeout: Double(Self.holdSeconds) + 30)
        try #require(scraped.status == 0 && crowdResult.status == 0, "\(scraped.stderr)\(crowdResult.stderr)")
        let scrapes = try #require(try JSONSerialization.jsonObject(with: Data(scraped.stdout.utf8)) as? [[Any]], "\(scraped.stdout)")
        let held = try #require(try JSONSerialization.jsonObject(with: Data(crowdResult.stdout.utf8)) as? [String: Int], "\(crowdResult.stdout)")

        // The crowd did hold hundreds: 400 opened at least once, and the server kept closing them.
        #expect((held["opened"] ?? 0) >= 400 && (held["closed"] ?? 0) >= 400, "\(held)")
        #expect(scrapes.count == 2 * scrapeSeconds, "\(scrapes)")
        // 1 s is the bound for a scrape: on loopback a scrape is answered in milliseconds
        // (a few tens on a loaded debug build), so one that takes a second has waited for a slot or
        // a timer (the request deadline is 5 s), which is what this test is about, not for the CPU.
        // A machine that is slow already without the crowd gets ten times its own slowest quiet
        // scrape, measured above in this run (issue 38: no bound tuned to one machine).
        let bound = max(1, 10 * quietSlowest)
        let slowest = scrapes.map { $0[2] as? Double ?? 99 }.max() ?? 99
        print("HTTPSlotTests: slowest scrape \(slowest) s under the crowd, \(quietSlowest) s before it; bound \(bound) s")
        for scrape in scrapes {
            let (path, status, seconds) = (scrape[0] as? String ?? "", scrape[1] as? Int ?? 0, scrape[2] as? Double ?? 99)
            #expect(status == 200 && seconds < bound, "\(path) answered \(status) after \(seconds) s (bound \(bound) s; \(quietSlowest) s before the crowd)")
        }
        // 64 connections' buffers and the churn of the crowd's: a few MB at most (a 1 MiB header
        // held per connection would be 64 MB).
        #expect(rssMost - rssBefore < 16_384, "RSS grew by \(rssMost - rssBefore) kB while the crowd held on")
        #expect(Daemon.isRunning(camcast), "\(camcast.stderrSoFar)")

        // The stream went on whole, as HTTPAbuseTests checks it.
        _ = try stream.stopExpectingTheStreamWhole(server: server, key: key)
    }
}
