import Logging
import ServiceLifecycle

/// The stream as one service: it builds the graph (`StreamGraph`: source → conversion → overlay →
/// the encoder stage → with sound the interleaver → each output, every hand-off a bounded queue
/// between threads), starts it, waits for the stop, stops it in graph order and logs the summary.
///
/// `run` returns after a clean stop — on graceful shutdown (SIGTERM/SIGINT), when
/// `durationSeconds` of media have been captured, when a file source ends, or when the last output
/// fails — with the encoder flushed and every output ended with an end-of-sequence tag; a failure
/// is thrown after the summary.
public struct Pipeline: Service {
    let settings: RunSettings
    let logger: Logger
    /// Reload, health and status hooks for the daemon around the pipeline.
    let control: PipelineControl

    public init(settings: RunSettings, logger: Logger, control: PipelineControl = PipelineControl()) {
        self.settings = settings
        self.logger = logger
        self.control = control
    }

    public func run() async throws {
        guard !settings.outputs.isEmpty else { throw PipelineError.noOutputs }
        let graph = try await StreamGraph.build(self)
        defer { graph.close() }
        try await graph.start()
        logger.info(
            "streaming",
            metadata: [
                "source": "\(settings.source)", "size": "\(settings.encoder.size)",
                "fps": "\(settings.encoder.frameRate)", "bitrate_kbps": "\(settings.encoder.bitrateKbps)",
                "outputs": "\(graph.outputs.map(\.name).joined(separator: ", "))",
                "audio": "\(settings.audio.map(\.description) ?? "none")",
            ])

        let reason = await withGracefulShutdownHandler {
            await graph.stop.wait()
        } onGracefulShutdown: {
            graph.stop.fire(.shutdownRequested)
        }
        let ending = await graph.stop(reason)
        logStopSummary(graph, ending, reason: reason)
        if case .failed(let error) = reason {
            // A file source (one with a pace) that failed before its first picture is a bad input,
            // not a run that broke.
            if case .sourceFailed(let text) = error, control.counters.framesCaptured.load(ordering: .relaxed) == 0, settings.source.pace != nil {
                throw PipelineError.sourceUnusable(text)
            }
            throw error
        }
    }
}
