/// Failures that stop the pipeline. Descriptions are single lines, safe to log (no stream keys).
public enum PipelineError: Error, CustomStringConvertible {
    case noOutputs
    case outputFailed(output: String, reason: String)
    /// A file output could not be opened at start (a path the sandbox or permissions forbid):
    /// a configuration error, which restarting will not fix.
    case outputUnavailable(output: String, reason: String)
    case sourceFailed(String)
    case encoderFailed(String)

    public var description: String {
        switch self {
        case .noOutputs:
            "no output given: add --output with an rtmp:// URL or an .flv path"
        case .outputFailed(let output, let reason):
            "output \(output) failed: \(reason)"
        case .outputUnavailable(let output, let reason):
            "output \(output) cannot be opened: \(reason)"
        case .sourceFailed(let reason):
            "source failed: \(reason)"
        case .encoderFailed(let reason):
            "encoder failed: \(reason)"
        }
    }
}
