import Media

/// The outputs as one reader last read them from `PipelineStages`, read again only when
/// `outputsGeneration` moved: the interleaver's delivering thread hands every batch to the outputs
/// without taking the stages' lock (issue 26), and still sees a reload's change from its next batch.
///
/// A reader that is a thread keeps it in a closure, so it is a class, `@unchecked Sendable` only
/// to be captured: its one thread is checked in debug builds (the first call binds it, since the
/// view is made before the interleaver's thread calls). A reader that is a task (the bitrate
/// adapter's, which moves between threads at each await) keeps a `Cache` as its own `var`.
final class OutputsView: @unchecked Sendable {
    // @unchecked: `cache` is read and written by one thread only, which `confinement` asserts.
    let confinement = ThreadConfinement("the outputs view's reader")
    private var cache = Cache()

    func current(_ stages: PipelineStages) -> [any StreamOutput] {
        confinement.assertOnFirstCaller("reading the outputs view")
        return cache.current(stages)
    }

    /// The view's state as a value: its one owner is whoever holds the `var`.
    struct Cache {
        private var stages: PipelineStages?
        private var generation = -1
        private var outputs: [any StreamOutput] = []

        mutating func current(_ stages: PipelineStages) -> [any StreamOutput] {
            // The generation is read before the list: a change in between is read again next time.
            let latest = stages.outputsGeneration.load(ordering: .acquiring)
            if latest != generation || stages !== self.stages {
                outputs = stages.streamingOutputs
                (self.stages, generation) = (stages, latest)
            }
            return outputs
        }
    }
}
