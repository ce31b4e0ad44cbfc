import Telemetry

extension PipelineControl {
    /// Pulls what the source and the sound keep for themselves into the registry, at report time
    /// (a Prometheus collector's way): each read is an atomic or the stage's own small lock.
    func collectTelemetry(configFile: String?) {
        let meter = telemetry.pipeline
        guard let running = runningStages else {
            telemetry.update { $0.running = false }
            return
        }
        let settings = running.settings.withLock { $0 }
        let source = running.source.withLock { $0 }
        meter.configuredKbps.store(settings.encoder.bitrateKbps, ordering: .relaxed)
        if settings.adaptiveBitrateFloorKbps == nil { meter.adaptedKbps.store(0, ordering: .relaxed) }
        meter.skippedAtSource.store(source?.skippedFrames ?? 0, ordering: .relaxed)
        meter.droppedByDriver.store(source?.driverDroppedFrames ?? 0, ordering: .relaxed)
        meter.placeholderFrames.store(source?.placeholderFrames ?? 0, ordering: .relaxed)
        meter.cameraTrouble.withLock { $0 = source?.placeholderReason }
        if let audio = running.audio.withLock({ $0 }) {
            let status = audio.status
            meter.hasAudio.store(true, ordering: .relaxed)
            meter.audioFrames.store(audio.encodedFrames.load(ordering: .relaxed), ordering: .relaxed)
            meter.audioXruns.store(status.xruns, ordering: .relaxed)
            meter.audioTrouble.withLock { $0 = status.device == .live ? nil : status.device.description }
        } else {
            meter.hasAudio.store(false, ordering: .relaxed)
        }
        telemetry.update { facts in
            facts.running = true
            facts.source = "\(settings.source)"
            facts.width = settings.encoder.size.width
            facts.height = settings.encoder.size.height
            facts.framesPerSecond = settings.encoder.frameRate.framesPerSecond
            facts.codec = "\(settings.encoder.codec)"
            facts.configFile = configFile
            facts.audio = settings.audio.map(\.description)
        }
    }

    /// The running graph, its outputs named as their meters are.
    func graph(of running: PipelineStages) -> PipelineGraph {
        running.graph(
            name: { meter(for: $0).name }, droppedAtEncoder: counters.droppedAtEncoder.load(ordering: .relaxed))
    }
}
