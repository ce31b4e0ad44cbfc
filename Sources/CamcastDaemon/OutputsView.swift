/// The outputs as one reader last read them from `PipelineStages`, read again only when
/// `outputsGeneration` moved: the interleaver's delivering thread hands every batch to the outputs
/// without taking the stages' lock (issue 26), and still sees a reload's change from its next batch;
/// the bitrate adapter's task samples them the same way.
final class OutputsView: @unchecked Sendable {
    // @unchecked: one reader only (the interleaver's delivering thread, Pipeline.run; the bitrate
    // adapter's task) reads and writes these; Sendable only to be captured by that reader.
    private var stages: PipelineStages?
    private var generation = -1
    private var outputs: [any StreamOutput] = []

    func current(_ stages: PipelineStages) -> [any StreamOutput] {
        // The generation is read before the list: a change in between is read again next time.
        let latest = stages.outputsGeneration.load(ordering: .acquiring)
        if latest != generation || stages !== self.stages {
            outputs = stages.streamingOutputs
            (self.stages, generation) = (stages, latest)
        }
        return outputs
    }
}
