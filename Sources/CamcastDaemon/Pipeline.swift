import AudioPath
import Capture
import Conversion
import Encoder
import Logging
import Media
import Overlay
import ServiceLifecycle
import Synchronization
import Telemetry

/// Source → encoder → FLV → outputs, run as one service.
///
/// The source's capture thread converts each frame, draws the overlay and hands a copy to the
/// encoder stage's queue (`EncoderStage`: a thread of its own; a live source's captured picture
/// never waits for it, a full queue drops it and counts it, while a placeholder or a file played
/// flat out waits for room). The stage's thread encodes and hands each coded
/// picture on, with no lock held; it becomes one codec-neutral `MediaPacket` on the
/// stream clock, handed to each output, which muxes it for itself (a file writes at once; an RTMP
/// output queues for its publisher thread). `run` returns after a clean stop — on
/// graceful shutdown (SIGTERM/SIGINT), when `durationSeconds` of media have been captured, or when
/// an output fails — with the encoder flushed and every output ended with an end-of-sequence tag.
public struct Pipeline: Service {
    let settings: RunSettings
    let logger: Logger
    /// Reload, health and status hooks for the daemon around the pipeline.
    let control: PipelineControl

    public init(settings: RunSettings, logger: Logger, control: PipelineControl = PipelineControl()) {
        self.settings = settings
        self.logger = logger
        self.control = control
    }

    public func run() async throws {
        guard !settings.outputs.isEmpty else { throw PipelineError.noOutputs }
        let stop = StopSignal()
        let counters = control.counters
        let streamStart = DebugStreamOrigin.fromEnvironment()
        let assembler = MediaPacketAssembler(originMilliseconds: streamStart)
        let lastCaptureTime = Atomic<Int64>(0)
        // The capture time (ms) of the last frame handed to the encoder: the stream's sound ends
        // where that picture's showing does.
        let lastFrameHandedOn = Atomic<Int64>(0)
        let frameMilliseconds = Int64(settings.encoder.frameRate.frameIntervalNanoseconds / 1_000_000)
        // The stages, set once when they exist (no lock: every picture and batch reads it); the
        // encoder's callback reaches outputs only through it.
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
                    windowMilliseconds: Self.interleaverWindowMilliseconds,
                    presentationDelayMilliseconds: PacketInterleaver.presentationDelay(sampleRate: $0.format.sampleRate), deliver: fromInterleaver)
            }
        } catch {
            throw PipelineError.encoderFailed("audio: \(error)")
        }
        // Its thread ends when the run does, whichever way.
        defer { interleaver?.close() }
        let audio = try makeAudioStage(
            stop: stop, assembler: assembler, interleaver: interleaver,
            soundEnd: { assembler.streamTime(ofCaptureTime: lastFrameHandedOn.load(ordering: .relaxed)) + frameMilliseconds },
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
            lastCaptureTime.store(picture.pts, ordering: .relaxed)
            // One codec-neutral packet for every output; each muxes it for itself.
            let packet = assembler.packet(for: picture)
            if let audio, !audioStarted.load(ordering: .relaxed), let origin = assembler.firstCaptureMilliseconds {
                audioStarted.store(true, ordering: .relaxed)
                audio.videoStarted(originMilliseconds: origin)
            }
            if let interleaver { interleaver.push(packet) } else { toOutputs([packet]) }
        }
        // Opening x264/x265, the camera and ALSA blocks: each on a thread of its own, so the
        // cooperative pool keeps serving signals and status meanwhile (issue 26 #5).
        let encoder: EncoderSession
        do {
            let pipeline = self
            encoder = try await DedicatedThread.run { try pipeline.openEncoderSession(pipeline.settings.encoder, output: handlePicture) }
        } catch {
            throw PipelineError.encoderFailed("\(error)")
        }
        defer { encoder.close() }
        // A file played flat out waits for the encoder (backpressure); a live source drops a
        // picture the encoder has no room for, never a placeholder (EncoderStage.whenFull).
        let encoderStage = EncoderStage(
            session: encoder, upstream: settings.source.pace == .fast ? .flatOut : .live, logger: logger,
            failed: { stop.fire(.failed(.encoderFailed("\($0)"))) },
            encoded: { counters.encodeNanoseconds.add($0, ordering: .relaxed) })
        // A file played flat out synthesises its stamps: latency measured against them means nothing.
        let latency: LatencyRecorder? = settings.source.pace == .fast ? nil : LatencyRecorder()
        let stages = PipelineStages(
            settings: settings, encoder: encoderStage, stop: stop, latency: latency, interleaver: interleaver, encoderOutput: handlePicture
        ) {
            // Where a closed output's end-of-sequence goes: after the last picture's showing.
            assembler.streamTime(ofCaptureTime: lastCaptureTime.load(ordering: .relaxed)) + (interleaver?.presentationDelay ?? 0)
        }
        _ = stagesBox.storeIfNil(stages)
        // The session in force at the end (a codec change replaces it).
        defer { stages.encoder.close() }

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

        let outputs = try makeOutputs(stages: stages, latency: latency)
        // In the stream before they open (nothing flows until the source starts), so that an
        // output failing during its first attempt is already one the stages know.
        // makeOutputs keeps the order of settings.outputs.
        for (target, output) in zip(settings.outputs, outputs) {
            stages.add(output, for: target)
        }
        control.outputsInForce(settings.outputs)
        try await Self.open(outputs)

        let source: any FrameSource
        do {
            let pipeline = self
            source = try await DedicatedThread.run { try pipeline.makeSource(stop: stop) }
        } catch {
            await Self.abandon(outputs)
            throw error
        }
        // A frame belongs to the run if it starts before the end, with half a frame interval of
        // slack so that rounding of the interval (33 333 333 ns at 30 fps) cannot add a frame.
        let halfInterval = Int64(settings.encoder.frameRate.frameIntervalNanoseconds / 2)
        let duration = settings.durationSeconds.map { Int64($0 * 1e9) - halfInterval }
        // The first frame's capture instant (ns; 0 until it comes), set once by compare-and-exchange.
        let firstFrame = Atomic<UInt64>(0)
        let stall = DebugCaptureStall.fromEnvironment()
        // Every frame becomes the encoder's picture (I420/NV12 at the stream's size) here, on the
        // capture thread, outside the encoder's locks; a frame that already is one goes on untouched.
        let conversion = ConversionStage(size: settings.encoder.size, scaling: settings.encoder.scaling)
        let wallClockLogged = Atomic<Bool>(false)
        let deliver: @Sendable (VideoFrame) -> Void = { frame in
            stall?.waitWhileStalled()
            let (set, earlier) = firstFrame.compareExchange(expected: 0, desired: frame.timestamp.nanoseconds, ordering: .relaxed)
            let first = set ? frame.timestamp : MonotonicTime(nanoseconds: earlier)
            if let duration {
                guard frame.timestamp.nanoseconds(since: first) < duration else {
                    stop.fire(.durationElapsed)
                    return
                }
            }
            guard !stop.hasFired else { return }
            lastFrameHandedOn.store(frame.timestamp.milliseconds, ordering: .relaxed)
            counters.framesCaptured.add(1, ordering: .relaxed)
            if !wallClockLogged.exchange(true, ordering: .relaxed) { Self.logFirstCapture(frame, logger: logger) }
            do {
                // Source -> conversion -> overlay -> the encoder stage's queue, each called with no
                // lock of another held.
                let planar = stages.encoderWantsI420.load(ordering: .relaxed)
                try conversion.convert(frame, planar: planar) { picture in
                    overlay.filter(picture) { filtered in
                        if !encoderStage.offer(filtered) {
                            counters.droppedAtEncoder.add(1, ordering: .relaxed)
                        }
                        // The picture as it was handed on, overlay included (the overlay's bytes go back after).
                        control.snapshots.offer(filtered)
                    }
                }
            } catch {
                stop.fire(.failed(.encoderFailed("\(error)")))
            }
        }
        stages.deliver.withLock { $0 = Callback(deliver) }
        do {
            try encoderStage.start()
        } catch {
            await Self.abandon(outputs)
            throw PipelineError.encoderFailed("\(error)")
        }
        do {
            // The camera opens and negotiates on its capture thread; start waits for that.
            let startStall = DebugCaptureStall.forStart()
            try await DedicatedThread.run {
                startStall?.waitWhileStalled()
                try source.start(deliver: deliver)
            }
        } catch {
            try? encoderStage.finish()
            await Self.abandon(outputs)
            throw error
        }
        stages.source.withLock { $0 = source }
        do {
            try await DedicatedThread.run { try audio?.start() }
        } catch {
            // The video source runs already: stop it, then let the outputs end as on any stop.
            stop.fire(.failed(.sourceFailed("audio: \(error)")))
        }
        stages.audio.withLock { $0 = audio }
        control.attach(self, stages)
        // Between schedule windows the source and the encoder rest (`idle: close`).
        let idleRest = startIdleRest(stages)
        logger.info(
            "streaming",
            metadata: [
                "source": "\(settings.source)", "size": "\(settings.encoder.size)",
                "fps": "\(settings.encoder.frameRate)", "bitrate_kbps": "\(settings.encoder.bitrateKbps)",
                "outputs": "\(outputs.map(\.name).joined(separator: ", "))",
                "audio": "\(settings.audio.map(\.description) ?? "none")",
            ])

        let reason = await withGracefulShutdownHandler {
            await stop.wait()
        } onGracefulShutdown: {
            stop.fire(.shutdownRequested)
        }

        // Teardown blocks (joins, drains, the encoder's flush): on a thread of its own, so the
        // cooperative pool keeps serving signals, status and the watchdog meanwhile.
        let (finalSource, delivery, graph) = await DedicatedThread.run { () -> ((any FrameSource)?, OutputStatistics, PipelineGraph) in
            // A rest or a wake under way finishes first; the source is stopped below either way.
            idleRest?.end()
            // Does not wait for a reload in progress; none starts after this.
            stages.close()
            control.detach()
            let finalSource = stages.source.withLock { $0 }
            finalSource?.stop()
            // The sound stops with the picture; its last packets go out before the outputs end.
            audio?.stop()
            do {
                // The pictures still queued are encoded, then the session flushed, on its thread.
                try stages.encoderStage.finish()
            } catch {
                logger.warning("encoder flush failed", metadata: ["error": "\(error)"])
            }
            interleaver?.flush()
            let end = assembler.streamTime(ofCaptureTime: lastCaptureTime.load(ordering: .relaxed)) + (interleaver?.presentationDelay ?? 0)
            let all = stages.currentOutputs + stages.failedOutputs.withLock { $0 }
            for output in all {
                if case .failed = reason, output.statistics.sentFrames == 0 {
                    // A run that failed before this output got a picture (a source that fails at its
                    // first read, an encoder at its first frame): its file is debris, not a recording.
                    output.abandon(endTime: end, drainSeconds: settings.stopDrainSeconds)
                } else {
                    output.finish(endTime: end, drainSeconds: settings.stopDrainSeconds)
                }
            }
            // The graph as it ended: every queue drained, its drops counted.
            return (finalSource, all.map(\.statistics).reduce(OutputStatistics(), +), control.graph(of: stages))
        }
        logger.info(
            "stopped",
            metadata: [
                "reason": "\(reason)", "frames": "\(counters.framesEncoded.load(ordering: .relaxed))",
                // The media time the run covered, first frame to last: its frame slots are this
                // over the interval, plus one, each encoded, skipped, dropped at the encoder's
                // full queue (encoder_dropped) or dropped by the driver.
                "media_ms": "\(Self.mediaMilliseconds(first: firstFrame.load(ordering: .relaxed), lastMilliseconds: lastFrameHandedOn.load(ordering: .relaxed)))",
                "skipped": "\(finalSource?.skippedFrames ?? 0)",
                "driver_dropped": "\(finalSource?.driverDroppedFrames ?? 0)", "bad_frames": "\(finalSource?.badFrames ?? 0)",
                "dropped": "\(delivery.droppedFrames)",
                "encoder_dropped": "\(counters.droppedAtEncoder.load(ordering: .relaxed))",
                "discarded": "\(delivery.discardedFrames)", "reconnects": "\(delivery.reconnects)",
                // Each output as the registry saw it to the end: rtmp-1 stopped 1234567 B 3 attempts.
                "outputs": "\(control.telemetry.outputMeters.map { Self.summary($0.reading()) }.joined(separator: "; "))",
            ].merging(audio.map { Self.audioSummary($0, late: interleaver?.latePackets ?? 0) } ?? [:]) { $1 })
        for line in graph.lines() { logger.info("graph: \(line)") }
        Self.logConversionCost(conversion, logger: logger)
        Self.logLockTakes(framesEncoded: counters.framesEncoded.load(ordering: .relaxed), logger: logger)
        Self.logOverlayCost(stages, logger: logger)
        if let summary = latency?.summary() {
            logger.info("latency", metadata: summary.metadata.mapValues { .string($0) })
        }
        if case .failed(let error) = reason {
            // A file source (one with a pace) that failed before its first picture is a bad input,
            // not a run that broke.
            if case .sourceFailed(let text) = error, counters.framesCaptured.load(ordering: .relaxed) == 0, settings.source.pace != nil {
                throw PipelineError.sourceUnusable(text)
            }
            throw error
        }
    }
}
