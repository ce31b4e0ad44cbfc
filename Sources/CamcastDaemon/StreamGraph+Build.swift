import AudioPath
import Encoder
import Media
import Outputs
import Overlay
import Synchronization

extension StreamGraph {
    /// Builds the nodes and joins them: encoder → (interleaver →) outputs, the audio branch when
    /// there is sound. Opens the encoder session and the overlay's font, makes the outputs and puts
    /// them in the stream; nothing is open to the world yet and no picture flows (`start` does
    /// that). Whatever it made is released again if a later step fails.
    static func build(_ pipeline: Pipeline) async throws -> StreamGraph {
        let settings = pipeline.settings
        let logger = pipeline.logger
        let control = pipeline.control
        let stop = StopSignal()
        let counters = control.counters
        let assembler = MediaPacketAssembler(originMilliseconds: DebugStreamOrigin.fromEnvironment())
        let clocks = Clocks()
        let frameMilliseconds = Int64(settings.encoder.frameRate.frameIntervalNanoseconds / 1_000_000)
        // The stages, set once when they exist (no lock: every picture and batch reads it); the
        // encoder's callback reaches the outputs only through it.
        let stagesBox = AtomicLazyReference<PipelineStages>()
        // With sound, the video and audio packets meet in one interleaver that hands them to the
        // outputs in time order, a batch at a time (PacketInterleaver.swift says why there);
        // without, each picture goes straight to the outputs as a batch of one.
        let toOutputs: @Sendable ([MediaPacket]) -> Void = { batch in
            guard let stages = stagesBox.load() else { return }
            for output in stages.streamingOutputs {
                output.write(contentsOf: batch)
            }
        }
        // The interleaver's thread alone calls this one: it keeps its own view of the outputs.
        let outputsView = OutputsView()
        let fromInterleaver: @Sendable ([MediaPacket]) -> Void = { batch in
            guard let stages = stagesBox.load() else { return }
            for output in outputsView.current(stages) {
                output.write(contentsOf: batch)
            }
        }
        let interleaver: PacketInterleaver?
        do {
            // Pictures decode ahead of their showing by the AAC delay, so they need not wait for
            // the audio of their instant (PacketOrder; a reload to a lower sample rate raises it).
            interleaver = try settings.audio.map {
                try PacketInterleaver(
                    windowMilliseconds: Pipeline.interleaverWindowMilliseconds,
                    presentationDelayMilliseconds: PacketInterleaver.presentationDelay(sampleRate: $0.format.sampleRate), deliver: fromInterleaver)
            }
        } catch {
            throw PipelineError.encoderFailed("audio: \(error)")
        }
        // Until the graph exists, a failure releases what was made so far, in reverse.
        var release: [@Sendable () -> Void] = [{ interleaver?.close() }]
        var built = false
        defer { if !built { release.reversed().forEach { $0() } } }

        let audio = try pipeline.makeAudioStage(
            stop: stop, assembler: assembler, interleaver: interleaver,
            soundEnd: { assembler.streamTime(ofCaptureTime: clocks.lastFrameHandedOn.load(ordering: .relaxed)) + frameMilliseconds },
            requestKeyframe: { stagesBox.load()?.encoder.requestKeyframe() })

        // The session calls this on the encoder stage's thread, after releasing its lock: writes,
        // muxing and queueing here never hold up a keyframe request or a reconfiguration. A
        // session a codec change opens delivers here too.
        let audioStarted = Atomic<Bool>(false)
        let handlePicture: @Sendable (EncodedPicture) -> Void = { picture in
            guard stagesBox.load() != nil else { return }
            counters.framesEncoded.add(1, ordering: .relaxed)
            if picture.isKeyframe { counters.keyframes.add(1, ordering: .relaxed) }
            counters.encodedBytes.add(picture.byteCount, ordering: .relaxed)
            clocks.lastCaptureTime.store(picture.pts, ordering: .relaxed)
            // One codec-neutral packet for every output; each muxes it for itself.
            let packet = assembler.packet(for: picture)
            if let audio, !audioStarted.load(ordering: .relaxed), let origin = assembler.firstCaptureMilliseconds {
                audioStarted.store(true, ordering: .relaxed)
                audio.videoStarted(originMilliseconds: origin)
            }
            if let interleaver { interleaver.push(packet) } else { toOutputs([packet]) }
        }
        // Opening x264/x265 blocks: on a thread of its own, so the cooperative pool keeps serving
        // signals and status meanwhile (issue 26 #5).
        let session: EncoderSession
        do {
            session = try await DedicatedThread.run { try pipeline.openEncoderSession(settings.encoder, output: handlePicture) }
        } catch {
            throw PipelineError.encoderFailed("\(error)")
        }
        release.append { session.close() }
        // A file played flat out waits for the encoder (backpressure); a live source drops a
        // picture the encoder has no room for, never a placeholder (EncoderStage.whenFull).
        let encoderStage = EncoderStage(
            session: session, upstream: settings.source.pace == .fast ? .flatOut : .live, logger: logger,
            failed: { stop.fire(.failed(.encoderFailed("\($0)"))) },
            encoded: { counters.encodeNanoseconds.add($0, ordering: .relaxed) })
        let latency: LatencyRecorder? = settings.source.pace == .fast ? nil : LatencyRecorder()
        let stages = PipelineStages(
            settings: settings, encoder: encoderStage, stop: stop, latency: latency, interleaver: interleaver, encoderOutput: handlePicture
        ) {
            assembler.streamTime(ofCaptureTime: clocks.lastCaptureTime.load(ordering: .relaxed)) + (interleaver?.presentationDelay ?? 0)
        }
        _ = stagesBox.storeIfNil(stages)
        // The session in force at the end (a codec change replaces it).
        release.append { stages.encoder.close() }

        // The filter between conversion and the encoder (text and a clock on the picture); a
        // reload replaces its settings in place. The font was checked when the settings were made;
        // opened before the outputs, so that a font gone since leaves no file behind.
        let overlay: OverlayStage
        do {
            overlay = try OverlayStage(settings: settings.overlay, logger: logger)
        } catch {
            throw PipelineError.sourceFailed("overlay: \(error)")
        }
        stages.overlay.withLock { $0 = overlay }

        let outputs = try pipeline.makeOutputs(stages: stages, latency: latency)
        // In the stream before they open (nothing flows until the source starts), so that an
        // output failing during its first attempt is already one the stages know.
        // makeOutputs keeps the order of settings.outputs.
        for (target, output) in zip(settings.outputs, outputs) {
            stages.add(output, for: target)
        }
        control.outputsInForce(settings.outputs)
        built = true
        return StreamGraph(
            pipeline: pipeline, stop: stop, assembler: assembler, interleaver: interleaver, audio: audio, firstSession: session,
            encoderStage: encoderStage, stages: stages, overlay: overlay, outputs: outputs, latency: latency, clocks: clocks)
    }
}
