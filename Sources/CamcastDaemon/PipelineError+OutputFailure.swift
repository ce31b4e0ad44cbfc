import Outputs

extension PipelineError {
    /// An output's failure, as the run reports it.
    init(_ failure: OutputFailure) {
        self = .outputFailed(output: failure.output, reason: failure.reason)
    }
}
