import Config
import Foundation
import Media
import RTMPAddress
import Testing

@testable import CamcastDaemon
@testable import StatusServer
@testable import Telemetry

/// The registry, health, the status line's naming of outputs that are down, and the endpoints'
/// replies, apart from sockets.
@Suite struct OperatorViewUnitTests {
    static let key = "sEcReT-kEy-123"

    private func registry() -> (TelemetryRegistry, OutputMeter, OutputMeter) {
        let registry = TelemetryRegistry(version: "9.9.9")
        let rtmp = OutputMeter(name: "rtmp-1", kind: "rtmp", target: "rtmp://host/live/****")
        let file = OutputMeter(name: "flv-1", kind: "flv", target: "/tmp/a.flv")
        registry.setOutputs([rtmp, file])
        registry.update { $0.running = true; $0.width = 320; $0.height = 180 }
        return (registry, rtmp, file)
    }

    @Test func firstConnectIsHealthyAFailedAttemptIsNot() {
        let (registry, rtmp, file) = registry()
        file.enter(.writing)
        rtmp.attemptStarted()
        rtmp.enter(.connecting)
        #expect(registry.report().healthProblems.isEmpty, "\(registry.report().healthProblems)")
        rtmp.attemptFailed(reason: "refused", message: "connection refused")
        rtmp.enter(.retrying)
        rtmp.attemptStarted()
        rtmp.enter(.connecting)
        let report = registry.report()
        #expect(report.healthProblems.count == 1)
        #expect(report.healthProblems.first?.hasPrefix("rtmp-1 down 0 s, 2 attempts: connection refused") == true, "\(report.healthProblems)")
        #expect(report.outputs[0].failuresByReason == ["refused": 1])
        #expect(report.shortStatus.hasPrefix("degraded 320x180 to 1/2 outputs; rtmp-1 down"), "\(report.shortStatus)")
        rtmp.enter(.streaming)
        #expect(registry.report().healthProblems.isEmpty)
        #expect(registry.report().outputs[0].lastPublishUnixSeconds > 0)
    }

    @Test func failedStaysFailedAfterTheStop() {
        let (_, rtmp, _) = registry()
        rtmp.enter(.failed, error: "publish rejected")
        rtmp.enter(.stopped)
        #expect(rtmp.reading().phase == .failed)
        #expect(rtmp.reading().trouble?.hasPrefix("rtmp-1 failed") == true)
    }

    @Test func statusLineNamesOutputsThatAreDownWithUnits() {
        var previous = PipelineSnapshot(
            at: MonotonicTime(nanoseconds: 0), size: VideoSize(width: 320, height: 180), targetKbps: 400, framesCaptured: 0,
            framesEncoded: 0, encodedBytes: 0, skippedAtSource: 0, outputs: 2)
        previous.queueSeconds = 0
        var current = previous
        current.at = MonotonicTime(nanoseconds: 1_000_000_000)
        current.queueSeconds = 0.24
        current.outputsDown = ["rtmp-1 down 14 s, 6 attempts: connection refused"]
        let line = StatusLine(previous: previous, current: current, uptimeSeconds: 20).text
        #expect(line.contains("queue 0.2 s"), "\(line)")
        #expect(line.hasSuffix("; rtmp-1 down 14 s, 6 attempts: connection refused"), "\(line)")
    }

    @Test func basicCredentialsCompareWholeValues() {
        let credentials = BasicCredentials(lines: "# users\nwatcher:pw1\n\nother:pw2\n")
        func header(_ text: String) -> String { "Basic " + Data(text.utf8).base64EncodedString() }
        #expect(credentials.admits(authorization: header("watcher:pw1")))
        #expect(credentials.admits(authorization: header("other:pw2")))
        #expect(!credentials.admits(authorization: header("watcher:pw")))
        #expect(!credentials.admits(authorization: header("watcher:pw1x")))
        #expect(!credentials.admits(authorization: nil))
        #expect(!credentials.admits(authorization: "Bearer abc"))
        #expect(BasicCredentials.constantTimeEqual(Array("a".utf8), Array("a".utf8)))
        #expect(!BasicCredentials.constantTimeEqual(Array("a".utf8), Array("ab".utf8)))
    }

    /// Two scrapes list the same families in the same order, sorted by name, and each family's
    /// series sorted (issue 45: swift-prometheus wrote them in its dictionaries' order).
    @Test func consecutiveScrapesListFamiliesAndSeriesInOneSortedOrder() {
        let (registry, rtmp, file) = registry()
        file.enter(.writing)
        rtmp.attemptFailed(reason: "refused", message: "connection refused")
        let endpoints = StatusEndpoints(registry: registry)
        func scrape() -> (families: [String], series: [[String]]) {
            let text = String(decoding: endpoints.reply(method: "GET", path: "/metrics").body, as: UTF8.self)
            var families: [String] = []
            var series: [[String]] = []
            for line in text.split(separator: "\n") {
                if line.hasPrefix("# TYPE ") {
                    families.append(String(line.split(separator: " ")[2]))
                    series.append([])
                } else if !line.hasPrefix("#"), !series.isEmpty {
                    series[series.count - 1].append(String(line.split(separator: " ")[0]))
                }
            }
            return (families, series)
        }
        let first = scrape()
        let second = scrape()
        #expect(first.families.count > 20, "\(first.families)")
        #expect(first.families == second.families)
        #expect(first.families == first.families.sorted(), "\(first.families)")
        #expect(first.series == second.series)
        for (family, series) in zip(first.families, first.series) {
            #expect(!series.isEmpty && series == series.sorted(), "\(family): \(series)")
        }
    }

    @Test func endpointsAnswerAndNeverEchoTheRequest() {
        let (registry, rtmp, file) = registry()
        file.enter(.writing)
        rtmp.attemptStarted()
        rtmp.attemptFailed(reason: "refused", message: "connection refused")
        rtmp.enter(.retrying)
        let endpoints = StatusEndpoints(registry: registry)
        let metrics = endpoints.reply(method: "GET", path: "/metrics?\(Self.key)")
        let text = String(decoding: metrics.body, as: UTF8.self)
        #expect(metrics.status == 200)
        #expect(text.contains(#"camcast_output_up{output="rtmp-1",kind="rtmp"} 0"#), "\(text)")
        #expect(text.contains(#"camcast_output_connect_failures_total{output="rtmp-1",kind="rtmp",reason="refused"} 1"#))
        #expect(text.contains(#"camcast_build_info{version="9.9.9"} 1"#))
        #expect(endpoints.reply(method: "GET", path: "/healthz").status == 503)
        #expect(endpoints.reply(method: "POST", path: "/status").status == 405)
        #expect(endpoints.reply(method: "GET", path: "/snapshot.jpg").status == 503)
        for path in ["/", "/status", "/metrics", "/healthz", "/\(Self.key)", "/status?key=\(Self.key)"] {
            let body = String(decoding: endpoints.reply(method: "GET", path: path).body, as: UTF8.self)
            #expect(!body.contains(Self.key), "\(path)")
        }
    }

    @Test func nonLoopbackListenNeedsCredentials() throws {
        var config = CamcastConfig.HTTPConfig()
        config.listen = "0.0.0.0:9935"
        #expect(throws: HTTPSettings.Problem.self) { try HTTPSettings(config) }
        config.listen = "[::1]:9935"
        #expect(try HTTPSettings(config)?.host == "::1")
        config.listen = ""
        #expect(try HTTPSettings(config) == nil)
    }

    @Test func outputsAreNamedByKindAndPositionUnlessTheConfigNamesThem() throws {
        let control = PipelineControl()
        let first = OutputTarget.rtmp(try RTMPURL(parsing: "rtmp://a/live/\(Self.key)"))
        let second = OutputTarget.rtmp(try RTMPURL(parsing: "rtmp://a/live/other"))
        let file = OutputTarget.flvFile(path: "/tmp/a.flv")
        #expect(control.meter(for: first).name == "rtmp-1")
        #expect(control.meter(for: file).name == "flv-1")
        #expect(control.meter(for: second, named: "backup").name == "backup")
        #expect(control.meter(for: first).name == "rtmp-1", "kept across calls (reloads)")
        #expect(!control.meter(for: first).target.contains(Self.key))
        control.outputsInForce([second, file])
        #expect(control.telemetry.outputMeters.map(\.name) == ["backup", "flv-1"])
    }
}
