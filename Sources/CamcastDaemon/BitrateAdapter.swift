import Logging
import Media
import Outputs
import ServiceLifecycle

/// Adaptive bitrate as a service of its own: every `interval` it samples what each output's
/// connection carries, lets `AdaptiveBitrateController` decide, and applies a change to the
/// running encoder through its live `reconfigure(bitrateKbps:)`, logging it once.
///
/// The controller is owned by this service's task alone (no lock). While adaptive bitrate is on,
/// this task is the only one that sets the encoder's bitrate: a reload only writes the new
/// configured bitrate into the running settings, and the next round here takes it as the new
/// ceiling. While it is off (`--no-adaptive-bitrate`), a reload sets the encoder itself.
struct BitrateAdapter: Service {
    let control: PipelineControl
    let logger: Logger
    /// OBS checks on every packet; ten rounds a second see a 200 ms backlog as it forms.
    static let interval = Duration.milliseconds(100)
    /// With an SRT output, as often as its statistics thread reads libsrt: a link slower than the
    /// stream overflows its queue within a few frames of a keyframe, and what it drops, resent
    /// behind that queue, comes too late for the receiver's latency. On tc-tbf at half the
    /// stream's rate the first lowering came 270–400 ms after the first frame at 100 ms rounds
    /// (the early reading needs two busy rounds after the first acknowledgement), and the frames
    /// in between were damaged (issue 42).
    static let srtInterval = Duration.nanoseconds(Int64(SRTOutput.statisticsIntervalNanoseconds))

    func run() async {
        await cancelWhenGracefulShutdown { await adapt() }
    }

    private func adapt() async {
        var controller: AdaptiveBitrateController?
        /// What this service last gave the encoder (or found it running at).
        var applied = 0
        // This task's own copy of the outputs, read again only after a change (no lock per sample):
        // a value, as the task may resume on another thread after each await.
        var outputs = OutputsView.Cache()
        var interval = Self.interval
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
            guard let stages = control.runningStages else { continue }
            let (ceiling, floor, carriesSRT) = stages.settings.withLock {
                ($0.encoder.bitrateKbps, $0.adaptiveBitrateFloorKbps, $0.outputs.contains { !$0.srtLatenciesMilliseconds.isEmpty })
            }
            interval = carriesSRT ? Self.srtInterval : Self.interval
            let now = MonotonicTime.now().nanoseconds
            guard let floor else {
                // Off, or turned off by a reload: back to the configured bitrate once.
                if controller != nil, applied != ceiling, await set(ceiling, on: stages) {
                    logger.info("bitrate \(ceiling) kbit/s: adaptive bitrate off")
                }
                controller = nil
                control.counters.adaptedKbps.store(0, ordering: .relaxed)
                continue
            }
            if controller == nil {
                // The encoder runs at the configured bitrate: at start, and after reloads while off.
                controller = AdaptiveBitrateController(ceilingKbps: ceiling, floorKbps: floor)
                applied = ceiling
            }
            guard var current = controller else { continue }
            if current.ceilingKbps != ceiling || current.floorKbps != min(floor, ceiling) {
                let target = current.setCeiling(ceiling, floorKbps: floor, at: now)
                if target != applied, await set(target, on: stages) {
                    logger.info("bitrate \(applied) → \(target) kbit/s: the configured bitrate is \(ceiling) kbit/s")
                    applied = target
                }
            }
            let observations = outputs.current(stages).map { output in
                AdaptiveBitrateController.Observation(
                    id: Int(bitPattern: UInt(bitPattern: ObjectIdentifier(output))), name: output.name, link: output.link)
            }
            if let change = current.observe(observations, at: now) {
                let (target, message) = Self.describe(change)
                if await set(target, on: stages) {
                    logger.notice("\(message)")
                    applied = target
                }
            }
            controller = current
            control.counters.adaptedKbps.store(applied, ordering: .relaxed)
        }
    }

    /// `bitrate lowered 1200 → 500 kbit/s: output rtmp://host/app/**** carries 590 kbit/s`.
    static func describe(_ change: AdaptiveBitrateController.Change) -> (target: Int, message: String) {
        switch change {
        case .lowered(let from, let to, let output, let sendKbps):
            (to, "bitrate lowered \(from) → \(to) kbit/s: output \(output) carries \(sendKbps) kbit/s")
        case .raised(let from, let to, .recovering(let link)):
            (to, "bitrate raised \(from) → \(to) kbit/s: the queue drained, back below the link's \(link) kbit/s")
        case .raised(let from, let to, .probing(let link)):
            (to, "bitrate raised \(from) → \(to) kbit/s: probing above the link's \(link) kbit/s")
        case .raised(let from, let to, .climbing):
            (to, "bitrate raised \(from) → \(to) kbit/s: the links have room")
        }
    }

    /// Sets the encoder's bitrate off the cooperative pool (the encoder's lock may be held for
    /// a picture's encode); false, with a warning, if the encoder refused.
    private func set(_ kbps: Int, on stages: PipelineStages) async -> Bool {
        let encoder = stages.encoder
        let failure = await DedicatedThread.run { () -> String? in
            do {
                try encoder.reconfigure(bitrateKbps: kbps)
                return nil
            } catch {
                return "\(error)"
            }
        }
        if let failure {
            logger.warning("could not change the bitrate", metadata: ["kbps": "\(kbps)", "error": "\(failure)"])
            return false
        }
        return true
    }
}
