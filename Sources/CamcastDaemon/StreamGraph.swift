import AudioPath
import Capture
import Conversion
import Encoder
import Media
import Outputs
import Overlay
import Synchronization

/// One run's graph, the only place that knows the topology: it builds the nodes — video source,
/// conversion, overlay, the encoder stage, the audio source and encoder, the interleaver, each
/// output — and the edges between them (StreamGraph+Build), starts them (+Start) and stops them in
/// graph order (+Stop): sources first, each stage drained, the outputs last. One topology: without
/// sound the audio branch and the interleaver are absent and the encoder hands to the outputs.
/// What it built can be read back and printed (`PipelineStages.graph`, `PipelineGraph`).
///
/// Threads: the video source's (capture, conversion, overlay; `capture`), the encoder stage's
/// (`encoder`), the sound's (`audio`), the interleaver's (`interleaver`) and each output's own.
/// Every hand-off between them is a bounded queue; none is made with a lock held.
final class StreamGraph: Sendable {
    let pipeline: Pipeline
    /// Fired once, by whatever ends the run (a signal, the duration, a source's end, a failure).
    let stop: StopSignal
    /// Stream time from capture time, shared by both tracks.
    let assembler: MediaPacketAssembler
    /// Where the tracks meet in time order; nil without sound.
    let interleaver: PacketInterleaver?
    let audio: AudioStage?
    /// The session opened at the start (a codec switch replaces it in the stage; both are closed).
    let firstSession: EncoderSession
    let encoderStage: EncoderStage
    /// The running stages as a reload and telemetry see them.
    let stages: PipelineStages
    let conversion: ConversionStage
    let overlay: OverlayStage
    /// In the order of `settings.outputs`; in the stream already, opened by `start`.
    let outputs: [any StreamOutput]
    /// Capture → socket latency; nil for a file played flat out (its stamps are synthesised).
    let latency: LatencyRecorder?
    let clocks: Clocks
    /// The thread that rests the source and the encoder between schedule windows; set by `start`.
    let idleRest = Lock<IdleRest?>(nil)

    /// The instants the graph keeps while pictures flow (each an atomic: every frame writes one).
    final class Clocks: Sendable {
        /// The capture time (ms) of the last picture encoded: a closed output's end goes after it.
        let lastCaptureTime = Atomic<Int64>(0)
        /// The capture time (ms) of the last frame handed to the encoder: the sound ends where that
        /// picture's showing does.
        let lastFrameHandedOn = Atomic<Int64>(0)
        /// The first frame's capture instant (ns; 0 until it comes), set once by compare-and-exchange.
        let firstFrame = Atomic<UInt64>(0)
    }

    init(
        pipeline: Pipeline, stop: StopSignal, assembler: MediaPacketAssembler, interleaver: PacketInterleaver?, audio: AudioStage?,
        firstSession: EncoderSession, encoderStage: EncoderStage, stages: PipelineStages, overlay: OverlayStage,
        outputs: [any StreamOutput], latency: LatencyRecorder?, clocks: Clocks
    ) {
        self.pipeline = pipeline
        self.stop = stop
        self.assembler = assembler
        self.interleaver = interleaver
        self.audio = audio
        self.firstSession = firstSession
        self.encoderStage = encoderStage
        self.stages = stages
        self.overlay = overlay
        self.outputs = outputs
        self.latency = latency
        self.clocks = clocks
        let encoder = pipeline.settings.encoder
        conversion = ConversionStage(size: encoder.size, scaling: encoder.scaling)
    }

    /// Releases what the graph holds after it stopped (or failed to start): the session in force,
    /// the first one, and the interleaver's thread.
    func close() {
        stages.encoder.close()
        firstSession.close()
        interleaver?.close()
    }

    /// Where a closed output's stream ends: after the last picture's showing.
    var streamEnd: Int64 {
        assembler.streamTime(ofCaptureTime: clocks.lastCaptureTime.load(ordering: .relaxed)) + (interleaver?.presentationDelay ?? 0)
    }
}
