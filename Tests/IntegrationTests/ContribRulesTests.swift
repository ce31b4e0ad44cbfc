import Foundation
import TestSupport
import Testing

/// contrib/: the alert rules and every PromQL expression of the Grafana dashboard pass
/// `promtool check rules` (the dashboard's as recording rules: Grafana itself is not packaged).
@Suite struct ContribRulesTests {
    static let contrib = Project.root.appendingPathComponent("contrib")

    static func promtool() throws -> Bool {
        if Environment.hasExecutable("promtool") { return true }
        try #require(!Environment.requireIntegration, "promtool is missing (Debian's prometheus; scripts/install-deps)")
        return false
    }

    /// `promtool test rules` on the alert rules with one test group: `group` is its body (the
    /// `input_series` and `alert_rule_test` lists, indented for it), every minute a sample.
    static func testAlerts(_ name: String, _ group: String) throws -> ProcessResult {
        let rules = contrib.appendingPathComponent("prometheus/camcast-alerts.yml")
        let test = try Project.scratchDirectory(name).appendingPathComponent("test.yml")
        try """
            rule_files: ["\(rules.path)"]
            evaluation_interval: 1m
            tests:
              - interval: 1m

            """.appending(group).write(to: test, atomically: true, encoding: .utf8)
        return try ProcessRunner.run("/usr/bin/promtool", ["test", "rules", test.path])
    }

    @Test func alertRulesPassPromtool() throws {
        guard try Self.promtool() else { return }
        let rules = Self.contrib.appendingPathComponent("prometheus/camcast-alerts.yml")
        let result = try ProcessRunner.run("/usr/bin/promtool", ["check", "rules", rules.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let text = try String(contentsOf: rules, encoding: .utf8)
        for alert in [
            "CamcastCameraGone", "CamcastOutputDown", "CamcastOnBackup", "CamcastIngestLegDown", "CamcastBitrateCollapsed",
            "CamcastFramesDropping", "CamcastRestarting",
        ] {
            #expect(text.contains("alert: \(alert)"))
        }
    }

    /// The group alerts (issue 43) evaluated by `promtool test rules` on series as camcast exports
    /// them: a failover output on its backup for 10 minutes fires CamcastOnBackup, its idle
    /// primary leg fires nothing (not CamcastOutputDown), and a dual-ingest leg down fires
    /// CamcastIngestLegDown while the group stays up; an output resting outside its schedule
    /// (`camcast_output_scheduled` 1) fires nothing either.
    @Test func groupAlertsFireOnTheBackupAndOnALegDownOnly() throws {
        guard try Self.promtool() else { return }
        let result = try Self.testAlerts("group-alerts", """
                input_series:
                  - series: 'camcast_output_up{instance="cam",output="failover-1",kind="failover"}'
                    values: '1x20'
                  - series: 'camcast_output_active_leg{instance="cam",output="failover-1",kind="failover"}'
                    values: '1 1 2x18'
                  - series: 'camcast_output_up{instance="cam",output="failover-1",kind="rtmp",leg="1"}'
                    values: '1 1 0x18'
                  - series: 'camcast_output_up{instance="cam",output="failover-1",kind="rtmp",leg="2"}'
                    values: '0 0 1x18'
                  - series: 'camcast_output_up{instance="cam",output="rtmp-2",kind="rtmp"}'
                    values: '0x20'
                  - series: 'camcast_output_scheduled{instance="cam",output="rtmp-2",kind="rtmp"}'
                    values: '1x20'
                  - series: 'camcast_output_up{instance="cam",output="dual-1",kind="dual"}'
                    values: '1x20'
                  - series: 'camcast_output_up{instance="cam",output="dual-1",kind="rtmp",leg="1"}'
                    values: '1x20'
                  - series: 'camcast_output_up{instance="cam",output="dual-1",kind="rtmp",leg="2"}'
                    values: '1 1 0x18'
                alert_rule_test:
                  - eval_time: 8m
                    alertname: CamcastOnBackup
                    exp_alerts: []
                  - eval_time: 13m
                    alertname: CamcastOnBackup
                    exp_alerts:
                      - exp_labels: {severity: warning, instance: cam, output: failover-1, kind: failover}
                        exp_annotations:
                          summary: "cam: failover-1 on backup leg 2 for 10 minutes"
                          description: "The primary ingest has not been back for return_after_seconds; /healthz says why it is down."
                  - eval_time: 13m
                    alertname: CamcastOutputDown
                    exp_alerts: []
                  - eval_time: 13m
                    alertname: CamcastIngestLegDown
                    exp_alerts:
                      - exp_labels: {severity: warning, instance: cam, output: dual-1, kind: rtmp, leg: "2"}
                        exp_annotations:
                          summary: "cam: leg 2 of dual-1 down for 10 minutes"
                          description: "Viewers still get the stream from the other leg; /status says why this one is down."

            """)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    /// An RTMP output resting outside its schedule sends nothing on purpose: CamcastBitrateCollapsed
    /// stays quiet for it (issue 44), while the same flat counter on an output that should stream fires.
    @Test func aRestingOutputIsNoCollapsedBitrate() throws {
        guard try Self.promtool() else { return }
        let result = try Self.testAlerts("resting-alerts", """
                input_series:
                  - series: 'camcast_encoder_configured_bitrate_bytes_per_second{instance="cam"}'
                    values: '312500x20'
                  - series: 'camcast_output_sent_bytes_total{instance="cam",output="rtmp-1",kind="rtmp"}'
                    values: '1000x20'
                  - series: 'camcast_output_scheduled{instance="cam",output="rtmp-1",kind="rtmp"}'
                    values: '1x20'
                  - series: 'camcast_output_sent_bytes_total{instance="cam",output="rtmp-2",kind="rtmp"}'
                    values: '1000x20'
                  - series: 'camcast_output_scheduled{instance="cam",output="rtmp-2",kind="rtmp"}'
                    values: '0x20'
                alert_rule_test:
                  - eval_time: 15m
                    alertname: CamcastBitrateCollapsed
                    exp_alerts:
                      - exp_labels: {severity: warning, instance: cam, output: rtmp-2}
                        exp_annotations:
                          summary: "cam: rtmp-2 sends under a quarter of its bitrate"

            """)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func everyDashboardExpressionPassesPromtool() throws {
        guard try Self.promtool() else { return }
        let data = try Data(contentsOf: Self.contrib.appendingPathComponent("grafana/camcast-dashboard.json"))
        let dashboard = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let panels = try #require(dashboard["panels"] as? [[String: Any]])
        let expressions = panels.flatMap { ($0["targets"] as? [[String: Any]] ?? []).compactMap { $0["expr"] as? String } }
        try #require(expressions.count >= 10, "\(expressions)")
        // Grafana's $instance variable: any instance, for the check.
        var rules = "groups:\n  - name: dashboard\n    rules:\n"
        for (index, expression) in expressions.enumerated() {
            let concrete = expression.replacingOccurrences(of: "$instance", with: ".*")
            let quoted = String(data: try JSONSerialization.data(withJSONObject: [concrete], options: .withoutEscapingSlashes), encoding: .utf8)!.dropFirst().dropLast()
            rules += "      - record: camcast_dashboard:panel_\(index)\n        expr: \(quoted)\n"
        }
        let file = try Project.scratchDirectory("dashboard").appendingPathComponent("rules.yml")
        try rules.write(to: file, atomically: true, encoding: .utf8)
        let result = try ProcessRunner.run("/usr/bin/promtool", ["check", "rules", file.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)\n\(rules)")
        #expect(result.stdout.contains("SUCCESS: \(expressions.count) rules found"), "\(result.stdout)")
    }
}
