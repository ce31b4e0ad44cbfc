import Capture
import Media
import Outputs
import Telemetry

extension StreamGraph {
    /// What the run left for its stop summary.
    struct Ending {
        /// The source in force at the end (a reload may have replaced the first), for its counts.
        var source: (any FrameSource)?
        /// Every output's figures, summed.
        var delivery: OutputStatistics
        /// The graph as it ended: every queue drained, its drops counted.
        var graph: PipelineGraph
    }

    /// Stops the nodes in graph order — the sources, then the encoder stage (its queue encoded,
    /// the session flushed), the interleaver flushed, the outputs last (each drains and ends its
    /// stream) — on a thread of its own, so the cooperative pool keeps serving signals, status and
    /// the watchdog meanwhile. After a failed run an output that got no picture takes its file away.
    func stop(_ reason: StopReason) async -> Ending {
        await DedicatedThread.run { [self] in
            // A rest or a wake under way finishes first; the source is stopped below either way.
            idleRest.withLock { $0 }?.end()
            // Does not wait for a reload in progress; none starts after this.
            stages.close()
            pipeline.control.detach()
            let source = stages.source.withLock { $0 }
            source?.stop()
            // The sound stops with the picture; its last packets go out before the outputs end.
            audio?.stop()
            do {
                try stages.encoderStage.finish()
            } catch {
                pipeline.logger.warning("encoder flush failed", metadata: ["error": "\(error)"])
            }
            interleaver?.flush()
            let end = streamEnd
            let drain = pipeline.settings.stopDrainSeconds
            let all = stages.currentOutputs + stages.failedOutputs.withLock { $0 }
            for output in all {
                if case .failed = reason, output.statistics.sentFrames == 0 {
                    // A run that failed before this output got a picture (a source that fails at its
                    // first read, an encoder at its first frame): its file is debris, not a recording.
                    output.abandon(endTime: end, drainSeconds: drain)
                } else {
                    output.finish(endTime: end, drainSeconds: drain)
                }
            }
            return Ending(
                source: source, delivery: all.map(\.statistics).reduce(OutputStatistics(), +),
                graph: pipeline.control.graph(of: stages))
        }
    }
}
