import FoundationEssentials
import Telemetry

/// What each path answers, apart from sockets: the HTTP handler asks `reply(method:path:)`
/// and writes what it gets.
public struct StatusEndpoints: Sendable {
    let registry: TelemetryRegistry
    /// The latest picture as JPEG (rate-limited by its maker); nil before the first. May block
    /// for up to a second (it waits for a picture): the HTTP handler calls `reply` off its event loop.
    let snapshot: (@Sendable () -> [UInt8]?)?

    public init(registry: TelemetryRegistry, snapshot: (@Sendable () -> [UInt8]?)? = nil) {
        self.registry = registry
        self.snapshot = snapshot
    }

    public func reply(method: String, path: String) -> HTTPReply {
        guard method == "GET" || method == "HEAD" else {
            return HTTPReply(status: 405, contentType: "text/plain; charset=utf-8", body: Array("only GET and HEAD\n".utf8), headers: [("Allow", "GET, HEAD")])
        }
        // The query (if any) plays no part and is never echoed.
        let route = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "/"
        switch route {
        case "/metrics":
            let report = registry.report()
            let text = MetricsExporter.text(for: report, process: .read(startUnixSeconds: registry.startUnixSeconds))
            return HTTPReply(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: Array(text.utf8))
        case "/status":
            var document = StatusDocument(registry.report(), graph: registry.graph())
            document.snapshot = snapshot != nil && document.report.facts.running
            return HTTPReply(status: 200, contentType: "application/json", body: Self.json(document))
        case "/healthz":
            let report = registry.report()
            let problems = report.healthProblems
            return problems.isEmpty
                ? HTTPReply(status: 200, text: (["ok"] + report.healthNotes).joined(separator: "\n") + "\n")
                : HTTPReply(status: 503, text: problems.joined(separator: "\n") + "\n")
        case "/", "/index.html":
            return HTTPReply(status: 200, contentType: "text/html; charset=utf-8", body: Array(StatusPage.html.utf8))
        case "/snapshot.jpg":
            guard let jpeg = snapshot?() else { return HTTPReply(status: 503, text: "no picture yet\n") }
            return HTTPReply(status: 200, contentType: "image/jpeg", body: jpeg, headers: [("Cache-Control", "no-store")])
        default:
            return HTTPReply(status: 404, text: "not found; try /, /status, /metrics, /healthz or /snapshot.jpg\n")
        }
    }

    static func json<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return ((try? encoder.encode(value)).map { Array($0) } ?? Array("{}".utf8)) + [10]
    }
}
