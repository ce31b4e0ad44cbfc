import Conversion
import Logging
import Telemetry

extension Pipeline {
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
}
