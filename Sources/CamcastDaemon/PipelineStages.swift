import Capture
import Encoder
import Media
import Synchronization

/// The running stages of one pipeline, as a reload sees them: which ones can be swapped while the
/// encoder keeps running (the source, the outputs), and the settings they were made from.
///
/// The capture thread reads `outputs` once per picture and `source` never; a reload replaces them
/// under their locks, so a picture goes either to the old set of outputs or to the new one.
final class PipelineStages: Sendable {
    /// One open output and the target it was made for (two RTMP URLs may differ only in their
    /// stream key, so the target, not the redacted name, tells them apart).
    struct Entry {
        var target: OutputTarget
        var output: any StreamOutput
    }

    /// The FLV outputs, and the sequence header a newly opened output must start with.
    struct OutputSet {
        var outputs: [Entry] = []
        /// The latest AVC sequence header the encoder produced (it repeats only when SPS/PPS change).
        var sequenceHeader: StreamPacket?
    }

    let encoder: X264EncoderSession
    let stop: StopSignal
    let outputs: Mutex<OutputSet>
    let rawWriters: Mutex<[AnnexBWriter]>
    let source: Mutex<(any FrameSource)?>
    /// Set once the pipeline tears down. A reload holds this lock while it swaps stages, so
    /// teardown waits for it and a reload never opens an output after the last one was closed.
    let closed = Mutex(false)
    /// What is running now: the settings the pipeline started with, with every applied reload on top.
    let settings: Mutex<RunSettings>
    /// Frames go to the encoder through this, whichever source delivers them.
    let deliver: Mutex<(@Sendable (VideoFrame) -> Void)?>
    /// Stream time (ms) of the latest picture, where an output that is closed ends its stream.
    let streamTime: @Sendable () -> UInt32
    /// Capture → socket latency of RTMP outputs, shared by every output opened during the run.
    let latency: LatencyRecorder?

    init(
        settings: RunSettings, encoder: X264EncoderSession, stop: StopSignal, latency: LatencyRecorder?,
        streamTime: @escaping @Sendable () -> UInt32
    ) {
        self.settings = Mutex(settings)
        self.encoder = encoder
        self.stop = stop
        self.latency = latency
        self.streamTime = streamTime
        outputs = Mutex(OutputSet())
        rawWriters = Mutex([])
        source = Mutex(nil)
        deliver = Mutex(nil)
    }

    /// The outputs to hand `packets` to; remembers a new sequence header for outputs opened later.
    func outputs(for packets: [StreamPacket]) -> [any StreamOutput] {
        outputs.withLock { set in
            if let header = packets.last(where: { $0.kind == .sequenceHeader }) { set.sequenceHeader = header }
            return set.outputs.map(\.output)
        }
    }

    /// Adds an opened output mid-stream: it gets the current sequence header at once, and the
    /// encoder is asked for an IDR so that it starts within a frame, not a GOP.
    func add(_ output: any StreamOutput, for target: OutputTarget) {
        outputs.withLock { set in
            if let header = set.sequenceHeader { output.write(header) }
            set.outputs.append(Entry(target: target, output: output))
        }
        encoder.requestKeyframe()
    }

    /// Takes the outputs made for `targets` out of the stream and returns them for closing.
    func remove(_ targets: [OutputTarget]) -> [any StreamOutput] {
        outputs.withLock { set in
            let removed = set.outputs.filter { targets.contains($0.target) }.map(\.output)
            set.outputs.removeAll { targets.contains($0.target) }
            return removed
        }
    }

    var currentOutputs: [any StreamOutput] { outputs.withLock { $0.outputs.map(\.output) } }
}
