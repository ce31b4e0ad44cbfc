#if canImport(Glibc)
import Glibc
#endif
import Logging
import Media
import Overlay

extension Pipeline {
    /// Logs the wall-clock time at which the first frame was captured (its capture stamp, moved
    /// from CLOCK_MONOTONIC to CLOCK_REALTIME): a frame's clock reads this plus its stream time,
    /// which is how a recording's burned-in clock can be checked against its timestamps.
    static func logFirstCapture(_ frame: VideoFrame, logger: Logger) {
        var real = timespec()
        clock_gettime(CLOCK_REALTIME, &real)
        let sinceCapture = MonotonicTime.now().nanoseconds(since: frame.timestamp)
        let captured = (Int64(real.tv_sec) * 1_000_000_000 + Int64(real.tv_nsec) - sinceCapture)
        logger.info(
            "first frame captured",
            metadata: ["wall_clock_unix_ms": "\(captured / 1_000_000)", "monotonic_ns": "\(frame.timestamp.nanoseconds)"])
    }

    /// The stop summary's overlay line: frames drawn on and the CPU time it took, per frame.
    static func logOverlayCost(_ stages: PipelineStages, logger: Logger) {
        guard let cost = stages.overlay.withLock({ $0 })?.cost, cost.frames > 0 else { return }
        logger.info(
            "overlay",
            metadata: [
                "frames": "\(cost.frames)", "cpu_ms": "\(cost.cpuNanoseconds / 1_000_000)",
                "us_per_frame": "\(cost.cpuNanoseconds / cost.frames / 1000)",
            ])
    }

    /// A reload's overlay change: the new settings are drawn from the next frame on, no keyframe.
    func applyOverlayChange(_ new: OverlaySettings?, to stages: PipelineStages, running: inout RunSettings, outcome: inout ReloadOutcome) {
        guard new != running.overlay, let stage = stages.overlay.withLock({ $0 }) else { return }
        do {
            try stage.replace(with: new)
            outcome.applied.append(new.map { "overlay: \($0.items.count) item(s)" } ?? "overlay off")
            running.overlay = new
        } catch {
            outcome.failures.append("overlay: \(error)")
        }
    }
}
