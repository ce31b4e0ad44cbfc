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

    @Test func alertRulesPassPromtool() throws {
        guard try Self.promtool() else { return }
        let rules = Self.contrib.appendingPathComponent("prometheus/camcast-alerts.yml")
        let result = try ProcessRunner.run("/usr/bin/promtool", ["check", "rules", rules.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let text = try String(contentsOf: rules, encoding: .utf8)
        for alert in ["CamcastCameraGone", "CamcastOutputDown", "CamcastBitrateCollapsed", "CamcastFramesDropping", "CamcastRestarting"] {
            #expect(text.contains("alert: \(alert)"))
        }
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
