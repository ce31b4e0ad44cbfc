import Foundation
import TestSupport
import Testing

/// The operator's view against real parts: nginx-rtmp takes the stream, a real Prometheus server
/// scrapes /metrics, promtool lints the scrape, headless Chromium loads the status page, curl
/// reads every endpoint (none may hold the stream key or the query's secret).
@Suite(.serialized, .enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason))
struct OperatorViewTests {
    static let streamKey = "oPeRaToR-kEy-4711"
    static let secret = "qUeRy-SeCrEt-99"
    static let videoFlags = ["run", "--size", "320x180", "--fps", "30", "--bitrate", "400", "--keyint-seconds", "2"]

    static func requireTool(_ name: String) throws {
        if !Environment.hasExecutable(name) {
            try #require(!Environment.requireIntegration, "\(name) is missing (scripts/install-deps installs it)")
        }
    }

    static func expectNoSecret(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!text.contains(streamKey), "\(what) holds the stream key", sourceLocation: sourceLocation)
        #expect(!text.contains(secret), "\(what) holds the query's value", sourceLocation: sourceLocation)
    }

    @Test func prometheusSeesTheOutputGoDownAndComeBack() throws {
        for tool in ["promtool", "prometheus", "curl"] { try Self.requireTool(tool) }
        guard Environment.hasExecutable("prometheus") else { return }
        let server = try RTMPServer()
        let port = Int(try freeLoopbackPort())
        let url = server.url(app: "live", name: Self.streamKey, query: "token=\(Self.secret)")
        let camcast = try Daemon.start(Self.videoFlags + ["--output", url], environment: ["CAMCAST_HTTP_LISTEN": "127.0.0.1:\(port)"])
        defer { camcast.signal(SIGKILL); _ = try? camcast.wait(timeout: 5) }
        try #require(Daemon.waitForLog(camcast, "RTMP publishing", timeout: 20), "never published: \(camcast.stderrSoFar)")
        let http = OperatorHTTP(port: port)

        // /metrics: the output is up, and the scrape passes promtool's lint.
        let metrics = try http.wait("/metrics", timeout: 10) { $0.status == 200 && $0.body.contains("camcast_output_up") }
        #expect(OperatorHTTP.value(of: #"camcast_output_up{output="rtmp-1",kind="rtmp"}"#, in: metrics.body) == 1, "\(metrics.body)")
        #expect(metrics.body.contains(#"camcast_build_info{version=""#))
        #expect(metrics.body.contains("process_start_time_seconds"))
        let scrape = try Project.scratchDirectory("scrape").appendingPathComponent("metrics.txt")
        try metrics.body.write(to: scrape, atomically: true, encoding: .utf8)
        let lint = try ProcessRunner.run("/bin/sh", ["-c", "promtool check metrics < '\(scrape.path)'"])
        #expect(lint.status == 0, "promtool check metrics: \(lint.stdout) \(lint.stderr)")

        let prometheus = try PrometheusServer(scraping: port)
        defer { prometheus.stop() }
        let up = #"camcast_output_up{output="rtmp-1"}"#
        #expect(try prometheus.wait(up, equals: 1, timeout: 30) != nil, "Prometheus never saw the output up")
        let health = try http.get("/healthz")
        #expect(health.status == 200, "\(health.body)")

        try server.kill()
        let down = try prometheus.wait(up, equals: 0, timeout: 5)
        #expect(down != nil, "camcast_output_up stayed 1 for 5 s after nginx was killed")
        let unhealthy = try http.wait("/healthz", timeout: 5) { $0.status == 503 }
        #expect(unhealthy.status == 503 && unhealthy.body.contains("rtmp-1"), "\(unhealthy.body)")
        let status = try http.get("/status")
        #expect(status.body.contains("\"lastError\""), "\(status.body)")

        try server.start()
        #expect(try prometheus.wait(up, equals: 1, timeout: 30) != nil, "camcast_output_up never came back to 1")
        let failures = try prometheus.value(#"sum(camcast_output_connect_failures_total{output="rtmp-1"})"#) ?? 0
        #expect(failures >= 1, "the lost connection and the refused attempts are counted")

        // No body of any endpoint names the key or the query's value; nor does the log.
        for path in ["/", "/status", "/metrics", "/healthz", "/nothing?\(Self.streamKey)"] {
            Self.expectNoSecret(try http.get(path).body, path)
        }
        camcast.signal(SIGTERM)
        let result = try camcast.wait(timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
        Self.expectNoSecret(result.stderr, "the log")
    }

    @Test func statusPageInChromiumShowsEachOutput() throws {
        try Self.requireTool("chromium")
        guard Environment.hasExecutable("chromium") else { return }
        let server = try RTMPServer()
        let port = Int(try freeLoopbackPort())
        let page = try Project.scratchDirectory("page")
        let recording = page.appendingPathComponent("out.flv")
        // A third output rests: its window opens two hours from now (UTC), every day.
        let hour = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).hour!
        let config = page.appendingPathComponent("camcast.yaml")
        try """
            schedule_timezone: UTC
            outputs:
              - url: \(server.url(app: "live", name: Self.streamKey))
              - path: "\(recording.path)"
              - url: \(server.url(app: "live", name: "later-\(Self.streamKey)"))
                name: later
                schedule:
                  - from: "\(String(format: "%02d", (hour + 2) % 24)):00"
                    to: "\(String(format: "%02d", (hour + 3) % 24)):00"

            """.write(to: config, atomically: true, encoding: .utf8)
        chmod(config.path, 0o600)
        let camcast = try Daemon.start(
            Self.videoFlags + ["--config", config.path], environment: ["CAMCAST_HTTP_LISTEN": "127.0.0.1:\(port)"])
        defer { camcast.signal(SIGKILL); _ = try? camcast.wait(timeout: 5) }
        try #require(Daemon.waitForLog(camcast, "RTMP publishing", timeout: 20), "\(camcast.stderrSoFar)")
        let profile = try Project.scratchDirectory("chromium")
        // --virtual-time-budget lets the page's fetch of /status finish before the DOM is dumped.
        let chromium = try ProcessRunner.run(
            "/usr/bin/chromium",
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)", "--enable-logging=stderr",
                "--v=0", "--virtual-time-budget=5000", "--dump-dom", "http://127.0.0.1:\(port)/",
            ], timeout: 60)
        let dom = chromium.stdout
        #expect(dom.contains(#"data-output="rtmp-1""#), "\(dom)")
        #expect(dom.contains(#"data-output="flv-1""#), "\(dom)")
        #expect(dom.contains("streaming for"), "\(dom)")
        #expect(dom.contains("writing for"), "\(dom)")
        // Resting on purpose: not shown as a fault, and until when.
        #expect(dom.contains(#"data-output="later""#) && dom.contains(#"class="state ok">scheduled for"#), "\(dom)")
        #expect(dom.contains("rests until start") && !dom.contains("last error: rests"), "\(dom)")
        let consoleErrors = chromium.stderr.split(separator: "\n").filter {
            $0.contains("CONSOLE") || $0.contains("Uncaught") || $0.contains("Failed to load resource")
        }
        #expect(consoleErrors.isEmpty, "\(consoleErrors)")
        Self.expectNoSecret(dom, "the page")

        // /snapshot.jpg decodes at the stream's size; requests within a second share one encode.
        let directory = try Project.scratchDirectory("snapshot")
        var bodies: [Data] = []
        for index in 0..<4 {
            let file = directory.appendingPathComponent("s\(index).jpg")
            let fetch = try ProcessRunner.run(
                "/usr/bin/curl", ["-s", "-f", "-m", "5", "-o", file.path, "http://127.0.0.1:\(port)/snapshot.jpg"], timeout: 10)
            try #require(fetch.status == 0, "snapshot request failed: \(fetch.stderr)")
            bodies.append(try Data(contentsOf: file))
        }
        #expect(Set(bodies).count <= 2, "four requests in about a second made \(Set(bodies).count) JPEGs")
        let probe = try ProcessRunner.run(
            "/usr/bin/ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0",
             directory.appendingPathComponent("s0.jpg").path])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "mjpeg,320,180", "\(probe.stdout) \(probe.stderr)")
    }

    @Test func otherAddressWithoutCredentialsIsAConfigError() throws {
        let result = try ProcessRunner.run(
            "/usr/bin/env",
            ["CAMCAST_HTTP_LISTEN=0.0.0.0:9935", Project.camcastBinary.path] + Self.videoFlags + ["--output", "/tmp/never.flv", "--duration", "1"],
            timeout: 20)
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr.contains("http.listen"), "\(result.stderr)")
    }

    @Test func credentialsAreAskedForAndSigusr1LogsTheStatus() throws {
        try Self.requireTool("curl")
        let directory = try Project.scratchDirectory("credentials")
        let file = directory.appendingPathComponent("users")
        try "watcher:s3cret-pw\n".write(to: file, atomically: true, encoding: .utf8)
        chmod(file.path, 0o644)
        let port = Int(try freeLoopbackPort())
        let environment = ["CAMCAST_HTTP_LISTEN": "127.0.0.1:\(port)", "CAMCAST_HTTP_CREDENTIALS_FILE": file.path]
        let recording = directory.appendingPathComponent("out.flv").path
        let loose = try Daemon.start(Self.videoFlags + ["--output", recording, "--duration", "1"], environment: environment).wait(timeout: 20)
        #expect(loose.status == 78 && loose.stderr.contains("chmod 600"), "\(loose.stderr)")

        chmod(file.path, 0o600)
        let camcast = try Daemon.start(Self.videoFlags + ["--output", recording], environment: environment)
        defer { camcast.signal(SIGKILL); _ = try? camcast.wait(timeout: 5) }
        try #require(Daemon.waitForLog(camcast, "http: listening", timeout: 20), "\(camcast.stderrSoFar)")
        #expect(try OperatorHTTP(port: port).get("/status").status == 401)
        #expect(try OperatorHTTP(port: port, user: "watcher:wrong").get("/status").status == 401)
        let admitted = try OperatorHTTP(port: port, user: "watcher:s3cret-pw").wait("/status", timeout: 10) { $0.status == 200 }
        #expect(admitted.status == 200 && admitted.body.contains("\"flv-1\""), "\(admitted.body)")

        camcast.signal(SIGUSR1)
        #expect(Daemon.waitForLog(camcast, "status: output flv-1", timeout: 10), "\(camcast.stderrSoFar)")
        #expect(Daemon.isRunning(camcast), "SIGUSR1 must not end the daemon")
        camcast.signal(SIGTERM)
        let result = try camcast.wait(timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("s3cret-pw"))
    }

    /// `http.*` applies on SIGHUP: new credentials work at once, old ones no longer do. A second
    /// instance on the same port logs the key to change and streams on.
    @Test func credentialsRotateOnReloadAndASecondInstanceOnThePortStreamsOn() throws {
        try Self.requireTool("curl")
        let directory = try Project.scratchDirectory("rotate")
        let users = directory.appendingPathComponent("users")
        try "watcher:first-pw\n".write(to: users, atomically: true, encoding: .utf8)
        chmod(users.path, 0o600)
        let port = Int(try freeLoopbackPort())
        let config = directory.appendingPathComponent("camcast.yaml")
        try """
            outputs:
              - path: \(directory.appendingPathComponent("a.flv").path)
                name: archive
            http:
              listen: 127.0.0.1:\(port)
              credentials_file: \(users.path)

            """.write(to: config, atomically: true, encoding: .utf8)
        let camcast = try Daemon.start(Self.videoFlags + ["--config", config.path])
        defer { camcast.signal(SIGKILL); _ = try? camcast.wait(timeout: 5) }
        try #require(Daemon.waitForLog(camcast, "http: listening", timeout: 20), "\(camcast.stderrSoFar)")
        let first = try OperatorHTTP(port: port, user: "watcher:first-pw").wait("/status", timeout: 10) { $0.status == 200 }
        #expect(first.body.contains("\"archive\""), "\(first.body)")

        let second = try Daemon.start(
            Self.videoFlags + ["--output", directory.appendingPathComponent("b.flv").path],
            environment: ["CAMCAST_HTTP_LISTEN": "127.0.0.1:\(port)"])
        defer { second.signal(SIGKILL); _ = try? second.wait(timeout: 5) }
        #expect(Daemon.waitForLog(second, "http.listen 127.0.0.1:\(port)", timeout: 20), "\(second.stderrSoFar)")
        #expect(Daemon.waitForLog(second, "writing FLV file", timeout: 20) && Daemon.isRunning(second), "\(second.stderrSoFar)")

        try "watcher:second-pw\n".write(to: users, atomically: true, encoding: .utf8)
        chmod(users.path, 0o600)
        camcast.signal(SIGHUP)
        try #require(Daemon.waitForLog(camcast, "reloaded", timeout: 20), "\(camcast.stderrSoFar)")
        let rotated = try OperatorHTTP(port: port, user: "watcher:second-pw").wait("/healthz", timeout: 10) { $0.status == 200 }
        #expect(rotated.status == 200, "\(rotated.body)")
        #expect(try OperatorHTTP(port: port, user: "watcher:first-pw").get("/healthz").status == 401)
        camcast.signal(SIGTERM)
        second.signal(SIGTERM)
        #expect(try camcast.wait(timeout: 20).status == 0)
        #expect(try second.wait(timeout: 20).status == 0)
    }
}
