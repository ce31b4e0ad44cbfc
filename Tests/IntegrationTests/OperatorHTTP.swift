import Foundation
import TestSupport

/// Talking to camcast's HTTP endpoint from the tests, with curl (nobody here wrote it).
struct OperatorHTTP {
    let port: Int
    var user: String? = nil

    struct Reply {
        var status: Int
        var body: String
    }

    /// GET `path`; status 0 when nothing answered.
    func get(_ path: String, timeout: Double = 5) throws -> Reply {
        var arguments = ["-s", "-m", "\(Int(timeout))", "-o", "-", "-w", "\n%{http_code}"]
        if let user { arguments += ["-u", user] }
        arguments.append("http://127.0.0.1:\(port)\(path)")
        let result = try ProcessRunner.run("/usr/bin/curl", arguments, timeout: timeout + 5)
        var text = result.stdout
        guard let newline = text.lastIndex(of: "\n") else { return Reply(status: 0, body: text) }
        let status = Int(text[text.index(after: newline)...]) ?? 0
        text = String(text[..<newline])
        return Reply(status: status, body: text)
    }

    /// Polls `path` until `match` holds or `timeout` passes; the last reply either way.
    func wait(_ path: String, timeout: Double, until match: (Reply) -> Bool) throws -> Reply {
        let deadline = Date().addingTimeInterval(timeout)
        var last = Reply(status: 0, body: "")
        while Date() < deadline {
            last = try get(path)
            if match(last) { return last }
            usleep(200_000)
        }
        return last
    }

    /// The value of one series in a /metrics text, e.g. `camcast_output_up{output="rtmp-1",kind="rtmp"}`.
    static func value(of series: String, in metrics: String) -> Double? {
        for line in metrics.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }
}

/// A real Prometheus server scraping one camcast every second, queried over its HTTP API.
final class PrometheusServer {
    let port: Int
    let process: RunningProcess
    let directory: URL

    /// `ruleFiles`: rule files Prometheus loads (and parses: `rules()` gives them back).
    init(scraping target: Int, ruleFiles: [URL] = []) throws {
        directory = try Project.scratchDirectory("prometheus-\(getpid())-\(target)")
        port = Int(try freeLoopbackPort())
        let rules = ruleFiles.isEmpty ? "" : "rule_files:\n" + ruleFiles.map { "  - \"\($0.path)\"\n" }.joined()
        let config = rules + """
            global:
              scrape_interval: 1s
              evaluation_interval: 1s
            scrape_configs:
              - job_name: camcast
                scrape_interval: 1s
                scrape_timeout: 900ms
                static_configs:
                  - targets: ["127.0.0.1:\(target)"]

            """
        let file = directory.appendingPathComponent("prometheus.yml")
        try config.write(to: file, atomically: true, encoding: .utf8)
        process = try ProcessRunner.start(
            "/usr/bin/prometheus",
            [
                "--config.file", file.path, "--storage.tsdb.path", directory.appendingPathComponent("data").path,
                "--web.listen-address=127.0.0.1:\(port)", "--log.level=warn",
            ])
    }

    /// The instant value of `query` (one series), nil when it has none yet.
    func value(_ query: String) throws -> Double? {
        let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
        let result = try ProcessRunner.run(
            "/usr/bin/curl", ["-s", "-m", "3", "http://127.0.0.1:\(port)/api/v1/query?query=\(encoded)"], timeout: 8)
        guard let json = try? JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any],
            let data = json["data"] as? [String: Any], let series = data["result"] as? [[String: Any]],
            let first = series.first, let pair = first["value"] as? [Any], let text = pair.last as? String
        else { return nil }
        return Double(text)
    }

    /// The `data` of a GET on the HTTP API's `path` (with `query`'s items, encoded here).
    func api(_ path: String, _ query: [(String, String)] = []) throws -> Any? {
        let items = query.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0.1)" }
        let url = "http://127.0.0.1:\(port)/api/v1/\(path)" + (items.isEmpty ? "" : "?" + items.joined(separator: "&"))
        let result = try ProcessRunner.run("/usr/bin/curl", ["-s", "-m", "5", url], timeout: 10)
        guard let json = try? JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], json["status"] as? String == "success"
        else { throw HarnessError("Prometheus's \(path) answered: \(result.stdout) \(result.stderr)") }
        return json["data"]
    }

    /// The label sets of the stored series `selector` selects.
    func series(_ selector: String) throws -> [[String: String]] {
        try api("series", [("match[]", selector)]) as? [[String: String]] ?? []
    }

    /// Polls `query` until its value is `expected`; the seconds it took, nil on timeout.
    func wait(_ query: String, equals expected: Double, timeout: Double) throws -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < timeout {
            if try value(query) == expected { return Date().timeIntervalSince(start) }
            usleep(250_000)
        }
        return nil
    }

    func stop() {
        process.signal(SIGTERM)
        _ = try? process.wait(timeout: 10)
    }
}
