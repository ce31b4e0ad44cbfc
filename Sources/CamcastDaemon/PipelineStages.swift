import AudioPath
import Capture
import Encoder
import Logging
import Media
import Outputs
import Overlay
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

    /// The outputs. No decoder configuration is kept here: every packet carries it.
    struct OutputSet {
        var outputs: [Entry] = []
    }

    /// The encoder stage: its own thread and queue; the capture thread hands it pictures.
    let encoderStage: EncoderStage
    /// The running encoder session; replaced only by a reload that changes the codec, so read it
    /// each time rather than keeping it (PipelineStages+Encoder). No lock.
    var encoder: EncoderSession { encoderStage.session }
    /// Whether the session in force reads planar I420 only (x265): the conversion stage then makes
    /// I420 of NV12 too, so that the backend does not convert under the session's lock. Set with
    /// the session; a frame converted just before a codec change still encodes (x265's backend
    /// splits NV12 itself).
    let encoderWantsI420: Atomic<Bool>
    /// Where every session's pictures go (the pipeline's handler), for a session a reload opens.
    let encoderOutput: @Sendable (EncodedPicture) -> Void
    let stop: StopSignal
    let outputs: Lock<OutputSet>
    /// Moves on every change of `outputs` (inside its lock, after the change): a reader that keeps
    /// its own copy (`OutputsView`) takes the lock only when this moved.
    let outputsGeneration = Atomic<Int>(0)
    /// Outputs taken out of the stream after they failed, still to be finished at teardown.
    let failedOutputs = Lock<[any StreamOutput]>([])
    let source: Lock<(any FrameSource)?>
    /// The sound (nil for `audio.source: none`); a reload replaces its source in place.
    let audio = Lock<AudioStage?>(nil)
    /// The overlay filter the capture thread hands every frame through; a reload changes its settings.
    let overlay = Lock<OverlayStage?>(nil)
    /// Whether the source rests between schedule windows (`IdleRest`): stopped, with a fresh encoder
    /// session waiting. Changed only inside `beginReload`/`endReload`, so a reload that replaces
    /// the source reads it steady (a resting source is replaced but not started).
    let sourceResting = Atomic<Bool>(false)
    /// Running, reloading (one reload at a time) or closed. No lock is held across a reload's
    /// drains and connects: teardown marks the stages closed at once, and a reload that is still
    /// under way then finishes what it opened itself instead of adding it (issue 14 #6).
    let phase = Lock(Phase.running)

    enum Phase {
        case running
        case reloading
        case closed
    }
    /// What is running now: the settings the pipeline started with, with every applied reload on top.
    let settings: Lock<RunSettings>
    /// Frames go to the encoder through this, whichever source delivers them.
    let deliver: Lock<Callback<VideoFrame, Void>?>
    /// Stream time (ms) of the latest picture, where an output that is closed ends its stream.
    let streamTime: @Sendable () -> Int64
    /// Capture → socket latency of RTMP outputs, shared by every output opened during the run.
    let latency: LatencyRecorder?
    /// Where the sound and the pictures meet (nil without sound); read for the graph.
    let interleaver: PacketInterleaver?

    init(
        settings: RunSettings, encoder: EncoderStage, stop: StopSignal, latency: LatencyRecorder?, interleaver: PacketInterleaver? = nil,
        encoderOutput: @escaping @Sendable (EncodedPicture) -> Void = { _ in },
        streamTime: @escaping @Sendable () -> Int64
    ) {
        self.settings = Lock(settings)
        encoderStage = encoder
        encoderWantsI420 = Atomic(encoder.session.settings.codec.readsPlanarOnly)
        self.encoderOutput = encoderOutput
        self.stop = stop
        self.latency = latency
        self.interleaver = interleaver
        self.streamTime = streamTime
        outputs = Lock(OutputSet())
        source = Lock(nil)
        deliver = Lock(nil)
    }

    /// The outputs to hand the next packet to.
    var streamingOutputs: [any StreamOutput] {
        outputs.withLock { $0.outputs.map(\.output) }
    }

    /// Adds an output to the stream; the encoder is asked for an IDR so that it starts within a
    /// frame, not a GOP (the IDR carries the decoder configuration with it). False once the
    /// stages are closed: the caller finishes the output itself.
    @discardableResult
    func add(_ output: any StreamOutput, for target: OutputTarget) -> Bool {
        let added = phase.withLock { phase -> Bool in
            guard phase != .closed else { return false }
            outputs.withLock { set in
                set.outputs.append(Entry(target: target, output: output))
                outputsGeneration.add(1, ordering: .releasing)
            }
            return true
        }
        if added { encoder.requestKeyframe() }
        return added
    }

    /// Starts a reload; false if one is under way or the stages are closed.
    func beginReload() -> Bool {
        phase.withLock { phase in
            guard phase == .running else { return false }
            phase = .reloading
            return true
        }
    }

    func endReload() {
        phase.withLock { phase in
            if phase == .reloading { phase = .running }
        }
    }

    /// Teardown: no reload adds anything after this; returns at once, even during a reload.
    func close() {
        phase.withLock { $0 = .closed }
    }

    var isClosed: Bool { phase.withLock { $0 == .closed } }

    /// Takes the outputs made for `targets` out of the stream and returns them for closing.
    func remove(_ targets: [OutputTarget]) -> [any StreamOutput] {
        outputs.withLock { set in
            let removed = set.outputs.filter { targets.contains($0.target) }.map(\.output)
            set.outputs.removeAll { targets.contains($0.target) }
            outputsGeneration.add(1, ordering: .releasing)
            return removed
        }
    }

    var currentOutputs: [any StreamOutput] { outputs.withLock { $0.outputs.map(\.output) } }

    /// Every output still in the stream.
    var liveOutputCount: Int { outputs.withLock { $0.outputs.count } }

    /// Takes a failed output out of the stream; the others keep going. Only when none is left
    /// does the run stop, with this failure as its reason (issue 14 #8).
    func outputFailed(_ identity: OutputIdentity, _ error: PipelineError, logger: Logger) {
        let removed: (any StreamOutput)? = outputs.withLock { set in
            guard let index = set.outputs.firstIndex(where: { identity.is($0.output) }) else { return nil }
            defer { outputsGeneration.add(1, ordering: .releasing) }
            return set.outputs.remove(at: index).output
        }
        if let removed { failedOutputs.withLock { $0.append(removed) } }
        outputLost(error, logger: logger)
    }

    private func outputLost(_ error: PipelineError, logger: Logger) {
        if liveOutputCount == 0 {
            stop.fire(.failed(error))
        } else {
            logger.error("output failed; the others continue", metadata: ["error": "\(error)"])
        }
    }
}
