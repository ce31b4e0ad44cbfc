import Telemetry

/// /status: the registry's figures plus what a person reads (healthy or why not, uptime).
struct StatusDocument: Encodable {
    var healthy: Bool
    /// Whether /snapshot.jpg has a picture to give.
    var snapshot = false
    var problems: [String]
    var summary: String
    var report: TelemetryReport
    /// The pipeline's stages, threads and queues as they run; nil while none runs.
    var graph: PipelineGraph?

    init(_ report: TelemetryReport, graph: PipelineGraph?) {
        self.graph = graph
        problems = report.healthProblems
        healthy = problems.isEmpty
        summary = report.shortStatus
        self.report = report
    }

    /// The camera as a person asks about it: is it there, and if not, why.
    struct Source: Encodable {
        var online: Bool
        var trouble: String?
        var framesCaptured: Int
        var placeholderFrames: Int
        var skippedAtSource: Int
        var droppedByDriver: Int
        /// Between schedule windows with `idle: close`: "until Mon 07:30 (07:30)"; absent while it runs.
        var resting: String?
    }

    struct Audio: Encodable {
        var online: Bool
        var trouble: String?
        var frames: Int
        var xruns: Int
    }

    private enum CodingKeys: String, CodingKey {
        case healthy, snapshot, problems, summary, version, uptimeSeconds, startUnixSeconds, pipeline, source, encoder, audio, outputs, graph
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(healthy, forKey: .healthy)
        try container.encode(snapshot, forKey: .snapshot)
        try container.encode(problems, forKey: .problems)
        try container.encode(summary, forKey: .summary)
        try container.encode(report.version, forKey: .version)
        try container.encode(report.uptimeSeconds, forKey: .uptimeSeconds)
        try container.encode(report.startUnixSeconds, forKey: .startUnixSeconds)
        try container.encode(report.facts, forKey: .pipeline)
        try container.encode(
            Source(
                online: report.cameraOnline, trouble: report.cameraTrouble, framesCaptured: report.framesCaptured,
                placeholderFrames: report.placeholderFrames, skippedAtSource: report.skippedAtSource,
                droppedByDriver: report.droppedByDriver, resting: report.sourceResting), forKey: .source)
        try container.encode(
            [
                "framesEncoded": report.framesEncoded, "keyframes": report.keyframes, "encodedBytes": report.encodedBytes,
                "configuredKbps": report.configuredKbps, "adaptedKbps": report.adaptedKbps,
            ], forKey: .encoder)
        if report.hasAudio {
            try container.encode(
                Audio(online: report.audioTrouble == nil, trouble: report.audioTrouble, frames: report.audioFrames, xruns: report.audioXruns),
                forKey: .audio)
        }
        try container.encode(report.outputs, forKey: .outputs)
        try container.encodeIfPresent(graph, forKey: .graph)
    }
}
