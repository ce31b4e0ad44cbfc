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
}
