import Capture
import Encoder
import Logging

/// What one reload did, for the log and for systemd's STATUS=.
struct ReloadOutcome: Sendable {
    /// One short phrase per change that took effect, e.g. "bitrate 1000 → 2500 kbit/s".
    var applied: [String] = []
    /// Changed keys that need a restart of the daemon.
    var needsRestart: [String] = []
    /// Stages that could not be changed; the old ones keep running where they could.
    var failures: [String] = []
    /// The reload stopped before it changed anything (the new encoder would not open): every
    /// setting is as it was, including those the daemon applies itself (log level, http).
    var changedNothing = false
}

extension Pipeline {
    /// Applies `new` to the running stages, restarting only what the change concerns (see
    /// `ReloadPlan`). Blocks while outputs connect or a source restarts: call it off the
    /// capture thread and off the cooperative pool.
    func apply(_ new: RunSettings, to stages: PipelineStages) -> ReloadOutcome {
        guard !stages.stop.hasFired, !stages.isClosed else {
            return ReloadOutcome(failures: ["the pipeline is stopping"])
        }
        guard stages.beginReload() else {
            return ReloadOutcome(failures: ["another reload is under way; try again when it has finished"])
        }
        defer { stages.endReload() }
        let old = stages.settings.withLock { $0 }
        let plan = ReloadPlan(from: old, to: new)
        var outcome = ReloadOutcome(needsRestart: plan.needsRestart)
        var running = old
        // The encoder goes first: the new file's other settings may only make sense with the new
        // encoder (adaptive bitrate is off for one that cannot change its bitrate live), so if it
        // will not open, nothing of the new file applies.
        if let failure = switchEncoder(plan, to: stages, running: &running, outcome: &outcome) {
            return ReloadOutcome(failures: [failure + "; nothing else of the new file was applied"], changedNothing: true)
        }
        applyEncoderChanges(plan, to: stages, running: &running, outcome: &outcome)
        if plan.restartSource {
            restartSource(new, stages: stages, running: &running, outcome: &outcome)
        }
        if let audio = plan.restartAudio, let stage = stages.audio.withLock({ $0 }) {
            do {
                try stage.replace(with: audio)
                // Between windows the new source rests too, until the next one (IdleRest).
                if stages.sourceResting.load(ordering: .relaxed) { stage.rest() }
                outcome.applied.append("audio \(running.audio.map(\.description) ?? "none") → \(audio)")
                running.audio = audio
            } catch {
                outcome.failures.append("audio \(audio): \(error)")
            }
        }
        applyOverlayChange(new.overlay, to: stages, running: &running, outcome: &outcome)
        if !plan.outputsToClose.isEmpty || !plan.outputsToOpen.isEmpty {
            replaceOutputs(plan, new: new, stages: stages, running: &running, outcome: &outcome)
        }
        // Read at IdleRest's next look: `keep` wakes a resting source, `close` lets it rest.
        if running.idle != new.idle {
            outcome.applied.append("idle \(running.idle.rawValue) → \(new.idle.rawValue)")
            running.idle = new.idle
        }
        if let seconds = plan.statusIntervalSeconds {
            running.statusIntervalSeconds = seconds
            outcome.applied.append("status every \(seconds) s")
        }
        if plan.reconnectChanged {
            // Policies are given to RTMP outputs when they are made: the ones reopened by this
            // reload have the new one; the others keep theirs until they are reopened.
            running.reconnect = new.reconnect
        running.outputUplinks = new.outputUplinks
            let reopened = plan.outputsToOpen.contains { if case .rtmp = $0 { true } else { false } }
            if reopened {
                outcome.applied.append("reconnect policy (RTMP outputs reopened)")
            }
        }
        stages.settings.withLock { $0 = running }
        control.outputsInForce(running.outputs)
        return outcome
    }

    /// A new session of the other codec or on the other encoder, when the plan asks for one; the
    /// failure, if it would not open (the running session is untouched then).
    private func switchEncoder(
        _ plan: ReloadPlan, to stages: PipelineStages, running: inout RunSettings, outcome: inout ReloadOutcome
    ) -> String? {
        if plan.codec != nil || plan.implementation != nil {
            // A new session of the other codec or on the other encoder, with the settings in force
            // (and the new bitrate and keyframe interval, which the live changes below then find
            // already set).
            var next = running.encoder
            next.codec = plan.codec ?? next.codec
            next.implementation = plan.implementation ?? next.implementation
            if let kbps = plan.bitrateKbps { next.bitrateKbps = kbps }
            if let interval = plan.keyframeInterval {
                next.keyframeIntervalSeconds = interval.seconds
                next.keyframeIntervalFrames = interval.frames
            }
            let change = plan.codec != nil
                ? "codec \(running.encoder.codec.rawValue) → \(next.codec.rawValue)"
                : "encoder \(running.encoder.encoderName) → \(next.encoderName)"
            do {
                stages.replaceEncoder(with: try openEncoderSession(next, output: stages.encoderOutput))
                outcome.applied.append("\(change) (new encoder session)")
                running.encoder.codec = next.codec
                running.encoder.implementation = next.implementation
            } catch {
                return "\(plan.codec.map { "codec \($0.rawValue)" } ?? "encoder \(next.encoderName)"): \(error)"
            }
        }
        return nil
    }

    private func applyEncoderChanges(
        _ plan: ReloadPlan, to stages: PipelineStages, running: inout RunSettings, outcome: inout ReloadOutcome
    ) {
        let adaptive = (plan.adaptiveBitrateFloorKbps ?? running.adaptiveBitrateFloorKbps) != nil
        if let kbps = plan.bitrateKbps, adaptive {
            // The bitrate adapter alone sets the encoder while it is on: the new bitrate is its
            // ceiling, taken at its next round (within 100 ms).
            outcome.applied.append("bitrate \(running.encoder.bitrateKbps) → \(kbps) kbit/s")
            running.encoder.bitrateKbps = kbps
        } else if let kbps = plan.bitrateKbps {
            do {
                // Live, no new keyframe: the session runs x264 with maxrate = average, the one
                // setting in which x264_encoder_reconfig moves the average too.
                try stages.encoder.reconfigure(bitrateKbps: kbps)
                outcome.applied.append("bitrate \(running.encoder.bitrateKbps) → \(kbps) kbit/s")
                running.encoder.bitrateKbps = kbps
            } catch {
                outcome.failures.append("bitrate: \(error)")
            }
        }
        if let floor = plan.adaptiveBitrateFloorKbps {
            let toggled = (floor == nil) != (running.adaptiveBitrateFloorKbps == nil)
            running.adaptiveBitrateFloorKbps = floor
            // The default floor follows the bitrate: then it is part of the bitrate change.
            if toggled || plan.bitrateKbps == nil {
                outcome.applied.append(floor.map { "adaptive bitrate from \($0) kbit/s" } ?? "adaptive bitrate off")
            }
        }
        if let interval = plan.keyframeInterval {
            do {
                try stages.encoder.reconfigure(keyframeIntervalSeconds: interval.seconds, keyframeIntervalFrames: interval.frames)
                running.encoder.keyframeIntervalSeconds = interval.seconds
                running.encoder.keyframeIntervalFrames = interval.frames
                outcome.applied.append("keyframe every \(running.encoder.keyframeIntervalInFrames) frames")
            } catch {
                outcome.failures.append("keyframe interval: \(error)")
            }
        }
    }

    /// Starts the new source before giving up the old one's place: if the new one cannot start,
    /// the old one is started again.
    private func restartSource(
        _ new: RunSettings, stages: PipelineStages, running: inout RunSettings, outcome: inout ReloadOutcome
    ) {
        guard let deliver = stages.deliver.withLock({ $0 }) else { return }
        var next = running
        next.source = new.source
        let replacement: any FrameSource
        do {
            replacement = try Pipeline(settings: next, logger: logger, control: control).makeSource(stop: stages.stop)
        } catch {
            outcome.failures.append("source \(new.source): \(error)")
            return
        }
        let old = stages.source.withLock { $0 }
        old?.stop()
        if stages.sourceResting.load(ordering: .relaxed) {
            // Between windows: the new source starts when the next one comes (IdleRest).
            stages.source.withLock { $0 = replacement }
            outcome.applied.append("source \(running.source) → \(new.source) (starts with the next window)")
            running.source = new.source
            return
        }
        do {
            guard !stages.isClosed else {
                outcome.failures.append("source \(new.source): the pipeline is stopping")
                return
            }
            try replacement.start(deliver: deliver.call)
            stages.source.withLock { $0 = replacement }
            outcome.applied.append("source \(running.source) → \(new.source)")
            running.source = new.source
        } catch {
            outcome.failures.append("source \(new.source): \(error)")
            do {
                try old?.start(deliver: deliver.call)
            } catch {
                stages.stop.fire(.failed(.sourceFailed("could not restart after a failed reload: \(error)")))
            }
        }
    }

    /// Closes the outputs that went away or changed (ending their stream properly), then opens
    /// the new ones; the others never notice.
    private func replaceOutputs(
        _ plan: ReloadPlan, new: RunSettings, stages: PipelineStages, running: inout RunSettings, outcome: inout ReloadOutcome
    ) {
        let end = stages.streamTime()
        for output in stages.remove(plan.outputsToClose) {
            output.finish(endTime: end, drainSeconds: running.stopDrainSeconds)
        }
        for target in plan.outputsToClose {
            outcome.applied.append("closed \(target)")
        }
        running.outputs.removeAll { plan.outputsToClose.contains($0) }
        running.rtmp = new.rtmp
        // The outputs reopened below follow their new schedules (and IdleRest reads them).
        running.outputSchedules = new.outputSchedules
        running.unsetClock = new.unsetClock
        running.sendQueueMilliseconds = new.sendQueueMilliseconds
        running.reconnect = new.reconnect

        for target in plan.outputsToOpen {
            var single = running
            single.outputs = [target]
            let builder = Pipeline(settings: single, logger: logger, control: control)
            do {
                for output in try builder.makeOutputs(stages: stages, latency: stages.latency) {
                    do {
                        try output.open()
                    } catch {
                        throw PipelineError(error)
                    }
                    guard stages.add(output, for: target) else {
                        // Teardown came first: end it here, the pipeline no longer sees it (nothing
                        // reached it: its file goes again).
                        output.abandon(endTime: stages.streamTime(), drainSeconds: 0)
                        throw PipelineError.outputFailed(output: output.name, reason: "the pipeline is stopping")
                    }
                }
                running.outputs.append(target)
                outcome.applied.append("opened \(target)")
            } catch {
                outcome.failures.append("\(target): \(error)")
            }
        }
    }
}
