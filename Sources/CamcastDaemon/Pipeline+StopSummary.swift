import Conversion
import Logging
import Media
import Telemetry

extension Pipeline {
    /// The stop summary: the run's counts in one `stopped` line (what the tests and an operator
    /// read), the graph as it ended, then the conversion, lock, overlay and latency lines.
    func logStopSummary(_ graph: StreamGraph, _ ending: StreamGraph.Ending, reason: StopReason) {
        let counters = control.counters
        let clocks = graph.clocks
        logger.info(
            "stopped",
            metadata: [
                "reason": "\(reason)", "frames": "\(counters.framesEncoded.load(ordering: .relaxed))",
                // The media time the run covered, first frame to last: its frame slots are this
                // over the interval, plus one, each encoded, skipped, dropped at the encoder's
                // full queue (encoder_dropped) or dropped by the driver.
                "media_ms": "\(Self.mediaMilliseconds(first: clocks.firstFrame.load(ordering: .relaxed), lastMilliseconds: clocks.lastFrameHandedOn.load(ordering: .relaxed)))",
                "skipped": "\(ending.source?.skippedFrames ?? 0)",
                "driver_dropped": "\(ending.source?.driverDroppedFrames ?? 0)", "bad_frames": "\(ending.source?.badFrames ?? 0)",
                "dropped": "\(ending.delivery.droppedFrames)",
                "encoder_dropped": "\(counters.droppedAtEncoder.load(ordering: .relaxed))",
                "discarded": "\(ending.delivery.discardedFrames)", "reconnects": "\(ending.delivery.reconnects)",
                // Each output as the registry saw it to the end: rtmp-1 stopped 1234567 B 3 attempts.
                "outputs": "\(control.telemetry.outputMeters.map { Self.summary($0.reading()) }.joined(separator: "; "))",
            ].merging(graph.audio.map { Self.audioSummary($0, late: graph.interleaver?.latePackets ?? 0) } ?? [:]) { $1 })
        for line in ending.graph.lines() { logger.info("graph: \(line)") }
        Self.logConversionCost(graph.conversion, logger: logger)
        Self.logLockTakes(framesEncoded: counters.framesEncoded.load(ordering: .relaxed), logger: logger)
        Self.logOverlayCost(graph.stages, logger: logger)
        if let summary = graph.latency?.summary() {
            logger.info("latency", metadata: summary.metadata.mapValues { .string($0) })
        }
    }

    /// The stop summary's `media_ms`: from the first frame's capture instant (ns, 0: none came) to
    /// the last frame handed on (ms).
    static func mediaMilliseconds(first: UInt64, lastMilliseconds: Int64) -> Int64 {
        guard first > 0 else { return 0 }
        return max(0, lastMilliseconds - MonotonicTime(nanoseconds: first).milliseconds)
    }

    /// One output in the stop summary: `rtmp-1 stopped, 1234567 B, 3 attempts (2 failed)`.
    static func summary(_ output: OutputReading) -> String {
        var text = "\(output.name) \(output.phase.rawValue), \(output.sentBytes) B"
        if output.kind == "rtmp" {
            let failed = output.failuresByReason.values.reduce(0, +)
            text += ", \(output.connectAttempts) attempts (\(failed) failed)"
        }
        return text
    }

    /// The stop summary's conversion line: how many frames had to be converted or scaled before the
    /// encoder (none when the source gives the encoder's picture) and the CPU time it took per frame.
    static func logConversionCost(_ stage: ConversionStage, logger: Logger) {
        let cost = stage.cost
        guard cost.frames > 0 else { return }
        logger.info(
            "conversion",
            metadata: [
                "frames": "\(cost.frames)", "converted": "\(cost.framesConverted)", "buffers": "\(cost.buffersMade)",
                "cpu_ms": "\(cost.cpuNanoseconds / 1_000_000)",
                "us_per_converted_frame": "\(cost.framesConverted > 0 ? cost.cpuNanoseconds / cost.framesConverted / 1000 : 0)",
            ])
    }

    /// The counting build's stop-summary line (scripts/bench --sections locks): every lock take in
    /// the process so far and the takes per encoded video frame. Nothing in a normal build.
    static func logLockTakes(framesEncoded: Int, logger: Logger) {
        guard let takes = LockTakes.total else { return }
        let perFrame = framesEncoded > 0 ? Double(takes) / Double(framesEncoded) : 0
        logger.info(
            "lock takes",
            metadata: ["takes": "\(takes)", "frames": "\(framesEncoded)", "per_frame": "\((perFrame * 10).rounded() / 10)"])
    }
}
