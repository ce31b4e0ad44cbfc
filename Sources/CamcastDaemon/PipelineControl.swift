import Media
import Synchronization

/// The daemon's handle on a running pipeline: its counters (for the watchdog and the status
/// line), and the way in for a reload. Made before the pipeline, shared with it.
public final class PipelineControl: Sendable {
    let counters = PipelineCounters()
    let startedAt = MonotonicTime.now()
    /// Set while the pipeline runs (source started, outputs open); nil before and after.
    private let stages = Mutex<(pipeline: Pipeline, stages: PipelineStages)?>(nil)

    public init() {}

    /// Pictures the encoder has produced so far; advancing means the pipeline is alive.
    public var framesEncoded: Int { counters.framesEncoded.load(ordering: .relaxed) }

    func attach(_ pipeline: Pipeline, _ running: PipelineStages) {
        stages.withLock { $0 = (pipeline, running) }
    }

    func detach() {
        stages.withLock { $0 = nil }
    }

    /// Applies new settings to the running pipeline. Blocks (outputs may connect): call it from
    /// a thread of its own.
    func reload(to settings: RunSettings) -> ReloadOutcome {
        guard let (pipeline, running) = stages.withLock({ $0 }) else {
            return ReloadOutcome(failures: ["the pipeline is not running"])
        }
        return pipeline.apply(settings, to: running)
    }

    /// The figures of the status line, as of now; nil while the pipeline is not running.
    func snapshot() -> PipelineSnapshot? {
        guard let (_, running) = stages.withLock({ $0 }) else { return nil }
        let settings = running.settings.withLock { $0 }
        let source = running.source.withLock { $0 }
        var snapshot = PipelineSnapshot(
            at: .now(), size: settings.encoder.size, targetKbps: settings.encoder.bitrateKbps,
            framesCaptured: counters.framesCaptured.load(ordering: .relaxed),
            framesEncoded: counters.framesEncoded.load(ordering: .relaxed),
            encodedBytes: counters.encodedBytes.load(ordering: .relaxed),
            skippedAtSource: source?.skippedFrames ?? 0,
            outputs: running.currentOutputs.count)
        snapshot.droppedByDriver = source?.driverDroppedFrames ?? 0
        snapshot.badFrames = source?.badFrames ?? 0
        snapshot.placeholderReason = source?.placeholderReason
        if let audio = running.audio.withLock({ $0 }) {
            let status = audio.status
            snapshot.audio = PipelineSnapshot.Audio(
                frames: audio.encodedFrames.load(ordering: .relaxed), xruns: status.xruns,
                trouble: status.device == .live ? nil : status.device.description)
        }
        let sent = running.currentOutputs.map(\.statistics).filter { !$0.isComplete }.map(\.sentFrames)
        snapshot.framesSent = sent.min() ?? 0
        let adapted = counters.adaptedKbps.load(ordering: .relaxed)
        snapshot.adaptedKbps = settings.adaptiveBitrateFloorKbps != nil && adapted > 0 ? adapted : nil
        for output in running.currentOutputs {
            let statistics = output.statistics
            snapshot.queuedPackets += statistics.queuedPackets
            snapshot.droppedFrames += statistics.droppedFrames
            snapshot.reconnects += statistics.reconnects
        }
        return snapshot
    }

    /// The running stages, for the bitrate adapter; nil while the pipeline is not running.
    var runningStages: PipelineStages? { stages.withLock { $0?.stages } }

    /// How often the status line is wanted now (a reload may change it).
    var statusIntervalSeconds: Double? {
        stages.withLock { $0 }?.stages.settings.withLock { $0.statusIntervalSeconds }
    }
}
