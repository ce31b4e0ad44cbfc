/// Failures that stop the pipeline. Descriptions are single lines, safe to log (no stream keys).
public enum PipelineError: Error, CustomStringConvertible {
    case noOutputs
    case outputFailed(output: String, reason: String)
    /// A file output could not be opened at start (a path the sandbox or permissions forbid):
    /// a configuration error, which restarting will not fix.
    case outputUnavailable(output: String, reason: String)
    case sourceFailed(String)
    /// A file source that cannot give its first picture (a header that does not match the size
    /// given for stdin, a first frame cut short or malformed): the input is wrong, which
    /// restarting will not fix (exit 78, as for a header the start checks refuse).
    case sourceUnusable(String)
    case encoderFailed(String)

    public var description: String {
        switch self {
        case .noOutputs:
            "no output given: add --output with an rtmp:// URL or an .flv path"
        case .outputFailed(let output, let reason):
            "output \(output) failed: \(reason)"
        case .outputUnavailable(let output, let reason):
            "output \(output) cannot be opened: \(reason)"
        case .sourceFailed(let reason), .sourceUnusable(let reason):
            "source failed: \(reason)"
        case .encoderFailed(let reason):
            "encoder failed: \(reason)"
        }
    }
}
