import Foundation
import TestSupport
import Testing

/// contrib/ against what a daemon really exports, as Prometheus reads both: the alert rules and the
/// dashboard's expressions (as recording rules) are loaded by a real Prometheus, which parses them
/// and gives them back over its API, while it scrapes a daemon with every kind of output (RTMP,
/// failover and dual-ingest groups, .flv, .h264, segmented recording, outage recording) and sound. Every series selector they use
/// (metric name and label matchers) must select stored series, and every label they group or join
/// by, or show in an annotation or a legend, must be on those series: a renamed metric or label
/// fails here, where `promtool check rules` (syntax only) passes.
extension ContribRulesTests {
    /// What one rule or panel reads, and the labels it names outside its selectors.
    struct Use {
        var name: String
        var expression: String
        var labels: [String]
    }

    @Test(.enabled(if: Environment.rtmpIntegrationEnabled, Environment.rtmpSkipReason), .timeLimit(.minutes(3)))
    func everyMetricAndLabelTheyUseIsInALiveScrape() throws {
        for tool in ["prometheus", "curl"] {
            try #require(Environment.hasExecutable(tool), "\(tool) is missing (scripts/install-deps installs it)")
        }
        let dir = try Project.scratchDirectory("contrib-scrape")
        let server = try RTMPServer()
        defer { try? server.stop() }
        let port = Int(try freeLoopbackPort())
        let config = dir.appendingPathComponent("camcast.yaml")
        try """
            outputs:
              - url: \(server.url(app: "live", name: "contrib"))
              - urls: [\(server.url(app: "live", name: "contrib-primary")), \(server.url(app: "live", name: "contrib-backup"))]
                mode: failover
              - urls: [\(server.url(app: "live", name: "contrib-a")), \(server.url(app: "live", name: "contrib-b"))]
                mode: both
              - url: srt://127.0.0.1:\(try freeLoopbackUDPPort())
              - path: \(dir.appendingPathComponent("out.flv").path)
              - path: \(dir.appendingPathComponent("out.h264").path)
              - record: \(dir.appendingPathComponent("segments").path)
                segment_seconds: 60
              - record: \(dir.appendingPathComponent("outages").path)
                mode: outage
                pre_seconds: 2
                post_seconds: 2
            http:
              listen: 127.0.0.1:\(port)
            """.write(to: config, atomically: true, encoding: .utf8)
        let camcast = try Daemon.start(
            ["run", "--config", config.path, "--source", "testpattern", "--size", "320x180", "--fps", "30", "--bitrate", "400"])
        defer { camcast.signal(SIGKILL); _ = try? camcast.wait(timeout: 5) }
        try #require(Daemon.waitForLog(camcast, "RTMP publishing", timeout: 30), "never published: \(camcast.stderrSoFar)")

        let (dashboardRules, legends) = try Self.dashboardAsRecordingRules(in: dir)
        let prometheus = try PrometheusServer(
            scraping: port, ruleFiles: [Self.contrib.appendingPathComponent("prometheus/camcast-alerts.yml"), dashboardRules])
        defer { prometheus.stop() }
        // Two scrapes at least after every output is up (one a second).
        // Eight outputs, and the two groups' four legs. The SRT output has no listener: its series
        // are there from the start all the same.
        let outputsUp = try prometheus.wait("count(camcast_output_up)", equals: 12, timeout: 40)
        try #require(outputsUp != nil, "Prometheus never saw twelve output series: \((try? prometheus.series("camcast_output_up")) ?? [])")
        usleep(2_500_000)

        var uses = try Self.uses(in: prometheus, legends: legends)
        // The dashboard's variable: `label_values(camcast_build_info, instance)`.
        uses.append(Use(name: "dashboard variable instance", expression: "camcast_build_info", labels: ["instance"]))
        try #require(uses.count >= 6 + legends.count, "rules read back: \(uses.map(\.name))")
        var checkedSelectors = 0
        for use in uses {
            let read = try PromQLSelectors(use.expression)
            #expect(!read.selectors.isEmpty, "\(use.name) reads no series: \(use.expression)")
            var labelsSeen = Set<String>()
            for selector in read.selectors {
                let series = try prometheus.series(selector.replacingOccurrences(of: "$instance", with: ".*"))
                #expect(!series.isEmpty, "\(use.name): \(selector) selects nothing in the scrape of a daemon with every output")
                labelsSeen.formUnion(series.flatMap(\.keys))
                checkedSelectors += 1
            }
            for label in Set(read.groupingLabels + use.labels) {
                #expect(labelsSeen.contains(label), "\(use.name) names the label \(label), on none of its series (\(labelsSeen.sorted()))")
            }
        }
        print("contrib against a live scrape: \(uses.count) rules and panels, \(checkedSelectors) selectors looked up")
    }

    /// The dashboard's expressions as recording rules (`camcast_dashboard:panel_N`), and each
    /// panel's legend labels (`{{output}}`) by rule name.
    static func dashboardAsRecordingRules(in dir: URL) throws -> (URL, [String: [String]]) {
        let data = try Data(contentsOf: contrib.appendingPathComponent("grafana/camcast-dashboard.json"))
        let dashboard = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let panels = try #require(dashboard["panels"] as? [[String: Any]])
        var rules = "groups:\n  - name: dashboard\n    rules:\n"
        var legends: [String: [String]] = [:]
        for (index, target) in panels.flatMap({ $0["targets"] as? [[String: Any]] ?? [] }).enumerated() {
            guard let expression = target["expr"] as? String else { continue }
            let name = "camcast_dashboard:panel_\(index)"
            // $instance as the dashboard's "All" sends it.
            let concrete = expression.replacingOccurrences(of: "$instance", with: ".*")
            let quoted = String(data: try JSONSerialization.data(withJSONObject: [concrete], options: .withoutEscapingSlashes), encoding: .utf8)!
                .dropFirst().dropLast()
            rules += "      - record: \(name)\n        expr: \(quoted)\n"
            let legend = target["legendFormat"] as? String ?? ""
            legends[name] = legend.matches(of: /\{\{\s*(\w+)\s*\}\}/).map { String($0.1) }
        }
        let file = dir.appendingPathComponent("dashboard-rules.yml")
        try rules.write(to: file, atomically: true, encoding: .utf8)
        return (file, legends)
    }

    /// Every rule Prometheus loaded, as it parsed it: its expression, and the labels its
    /// annotations (`$labels.output`) or its panel's legend name.
    static func uses(in prometheus: PrometheusServer, legends: [String: [String]]) throws -> [Use] {
        let data = try #require(try prometheus.api("rules") as? [String: Any])
        let groups = try #require(data["groups"] as? [[String: Any]])
        return groups.flatMap { $0["rules"] as? [[String: Any]] ?? [] }.compactMap { rule in
            guard let name = rule["name"] as? String, let query = rule["query"] as? String else { return nil }
            let annotations = (rule["annotations"] as? [String: String] ?? [:]).values.joined(separator: " ")
            let annotated = annotations.matches(of: /\$labels\.(\w+)/).map { String($0.1) }
            return Use(name: name, expression: query, labels: annotated + (legends[name] ?? []))
        }
    }
}
