import Capture
import Encoder
import FLV
import Logging
import Media
import ServiceLifecycle
import Synchronization

/// Source → encoder → FLV → outputs, run as one service.
///
/// The source's capture thread drives everything per frame: it encodes, the encoder's output
/// callback turns pictures into FLV tags, and the tags are handed to each output (a file writes at
/// once; an RTMP output queues for its publisher thread). `run` returns after a clean stop — on
/// graceful shutdown (SIGTERM/SIGINT), when `durationSeconds` of media have been captured, or when
/// an output fails — with the encoder flushed and every output ended with an end-of-sequence tag.
public struct Pipeline: Service {
    private let settings: RunSettings
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
        let assembler = Mutex(FLVStreamAssembler())
        let lastCaptureTime = Atomic<Int64>(0)
        // The stages a reload may swap; the encoder's callback reaches outputs only through it.
        let stagesBox = Mutex<PipelineStages?>(nil)

        let encoder: X264EncoderSession
        do {
            encoder = try X264EncoderSession(settings: settings.encoder, logger: logger) { picture in
                guard let stages = stagesBox.withLock({ $0 }) else { return }
                counters.framesEncoded.add(1, ordering: .relaxed)
                if picture.isKeyframe { counters.keyframes.add(1, ordering: .relaxed) }
                counters.encodedBytes.add(picture.nalUnits.reduce(0) { $0 + $1.bytes.count }, ordering: .relaxed)
                lastCaptureTime.store(picture.pts, ordering: .relaxed)
                for writer in stages.rawWriters.withLock({ $0 }) {
                    do {
                        _ = try writer.write(picture)
                    } catch {
                        stop.fire(.failed(.outputFailed(output: writer.path, reason: "\(error)")))
                    }
                }
                let packets: [StreamPacket]
                do {
                    packets = try assembler.withLock { try $0.packets(for: picture) }
                } catch {
                    stop.fire(.failed((error as? PipelineError) ?? .encoderFailed("\(error)")))
                    return
                }
                for output in stages.outputs(for: packets) {
                    for packet in packets { output.write(packet) }
                }
            }
        } catch {
            throw PipelineError.encoderFailed("\(error)")
        }
        defer { encoder.close() }
        // A file played flat out synthesises its stamps: latency measured against them means nothing.
        let latency: LatencyRecorder? = settings.source.pace == .fast ? nil : LatencyRecorder()
        let stages = PipelineStages(settings: settings, encoder: encoder, stop: stop, latency: latency) {
            assembler.withLock { $0.streamTime(ofCaptureTime: lastCaptureTime.load(ordering: .relaxed)) }
        }
        let rawWriters = try makeAnnexBWriters()
        stages.rawWriters.withLock { $0 = rawWriters }
        stagesBox.withLock { $0 = stages }
        defer { stages.rawWriters.withLock { $0 }.forEach { $0.close() } }

        let outputs = try makeOutputs(encoder: encoder, stop: stop, latency: latency)
        var opened: [any StreamOutput] = []
        for output in outputs {
            do {
                try output.open()
                opened.append(output)
            } catch {
                for output in opened { output.finish(endTimestamp: 0, drainSeconds: 0) }
                throw error
            }
        }
        // makeOutputs keeps the order of settings.outputs and skips only .h264 targets.
        let outputTargets = settings.outputs.filter { $0.annexBPath == nil }
        for (target, output) in zip(outputTargets, outputs) {
            stages.add(output, for: target)
        }

        let source = try makeSource(stop: stop)
        // A frame belongs to the run if it starts before the end, with half a frame interval of
        // slack so that rounding of the interval (33 333 333 ns at 30 fps) cannot add a frame.
        let halfInterval = Int64(settings.encoder.frameRate.frameIntervalNanoseconds / 2)
        let duration = settings.durationSeconds.map { Int64($0 * 1e9) - halfInterval }
        let firstFrame = Mutex<MonotonicTime?>(nil)
        let stall = DebugCaptureStall.fromEnvironment()
        let deliver: @Sendable (VideoFrame) -> Void = { frame in
            stall?.waitWhileStalled()
            if let duration {
                let first = firstFrame.withLock { first in
                    if first == nil { first = frame.timestamp }
                    return first!
                }
                guard frame.timestamp.nanoseconds(since: first) < duration else {
                    stop.fire(.durationElapsed)
                    return
                }
            }
            guard !stop.hasFired else { return }
            counters.framesCaptured.add(1, ordering: .relaxed)
            do {
                try encoder.encode(frame)
            } catch {
                stop.fire(.failed(.encoderFailed("\(error)")))
            }
        }
        stages.deliver.withLock { $0 = deliver }
        try source.start(deliver: deliver)
        stages.source.withLock { $0 = source }
        control.attach(self, stages)
        logger.info(
            "streaming",
            metadata: [
                "source": "\(settings.source)", "size": "\(settings.encoder.size)",
                "fps": "\(settings.encoder.frameRate)", "bitrate_kbps": "\(settings.encoder.bitrateKbps)",
                "outputs": "\(outputs.map(\.name).joined(separator: ", "))",
            ])

        let reason = await withGracefulShutdownHandler {
            await stop.wait()
        } onGracefulShutdown: {
            stop.fire(.shutdownRequested)
        }

        // Waits for a reload in progress; none starts after this.
        stages.closed.withLock { $0 = true }
        control.detach()
        let finalSource = stages.source.withLock { $0 }
        finalSource?.stop()
        do {
            try encoder.flush()
        } catch {
            logger.warning("encoder flush failed", metadata: ["error": "\(error)"])
        }
        let end = assembler.withLock { $0.streamTime(ofCaptureTime: lastCaptureTime.load(ordering: .relaxed)) }
        for output in stages.currentOutputs {
            output.finish(endTimestamp: end, drainSeconds: settings.stopDrainSeconds)
        }
        let delivery = stages.currentOutputs.map(\.statistics).reduce(OutputStatistics(), +)
        logger.info(
            "stopped",
            metadata: [
                "reason": "\(reason)", "frames": "\(counters.framesEncoded.load(ordering: .relaxed))",
                "skipped": "\(finalSource?.skippedFrames ?? 0)",
                "driver_dropped": "\(finalSource?.driverDroppedFrames ?? 0)", "dropped": "\(delivery.droppedFrames)",
                "discarded": "\(delivery.discardedFrames)", "reconnects": "\(delivery.reconnects)",
            ])
        if let summary = latency?.summary() {
            logger.info("latency", metadata: summary.metadata.mapValues { .string($0) })
        }
        if case .failed(let error) = reason { throw error }
    }

    func makeSource(stop: StopSignal) throws -> any FrameSource {
        switch settings.source {
        case .testPattern:
            return try TestPatternSource(size: settings.encoder.size, frameRate: settings.encoder.frameRate)
        case .device(let device):
            return try V4L2CaptureSource(settings: device, logger: logger)
        case .file(let file):
            let source: Y4MFileSource
            do {
                source = try Y4MFileSource(settings: file, logger: logger) { error in
                    stop.fire(error.map { .failed(.sourceFailed("\(file.isStandardInput ? "stdin" : file.path): \($0)")) } ?? .sourceEnded)
                }
            } catch {
                throw PipelineError.sourceFailed("\(error)")
            }
            // A file's header set the encoder up (SettingsResolver); stdin cannot be read twice, so
            // its header must agree with the size and rate given for it.
            guard source.size == settings.encoder.size, source.frameRate == settings.encoder.frameRate else {
                throw PipelineError.sourceFailed(
                    "the y4m input is \(source.size)@\(source.frameRate) fps but the encoder is set up for "
                        + "\(settings.encoder.size)@\(settings.encoder.frameRate); give --size and --fps to match")
            }
            return source
        case .replay(let replay):
            let name = replay.isStandardInput ? "stdin" : replay.path
            do {
                return try CameraReplaySource(settings: replay, logger: logger) { error in
                    stop.fire(error.map { .failed(.sourceFailed("\(name): \($0)")) } ?? .sourceEnded)
                }
            } catch {
                throw PipelineError.sourceFailed("\(name): \(error)")
            }
        }
    }

    func makeOutputs(encoder: X264EncoderSession, stop: StopSignal, latency: LatencyRecorder?) throws -> [any StreamOutput] {
        let metadata = try FLVMuxer().metadataTag(
            FLVMetadata(
                width: settings.encoder.size.width, height: settings.encoder.size.height,
                frameRate: settings.encoder.frameRate.framesPerSecond,
                videoDataRate: Double(settings.encoder.bitrateKbps), encoder: "Camcast (libx264)"))
        let fail: @Sendable (PipelineError) -> Void = { stop.fire(.failed($0)) }
        return settings.outputs.compactMap { target -> (any StreamOutput)? in
            switch target {
            case .flvFile(let path):
                FLVFileOutput(path: path, metadata: metadata, logger: logger, onFailure: fail)
            case .rtmp(let url):
                RTMPOutput(
                    url: url, options: settings.rtmp, reconnect: settings.reconnect, metadata: metadata,
                    queueMilliseconds: settings.sendQueueMilliseconds, bitrateKbps: settings.encoder.bitrateKbps,
                    logger: logger, requestKeyframe: { encoder.requestKeyframe() }, onFailure: fail,
                    latency: latency)
            case .annexBFile:
                nil  // written from encoded pictures directly, see makeAnnexBWriters
            }
        }
    }

    /// Raw `.h264` outputs take the encoder's pictures as they are (Annex-B needs NAL units, not FLV tags).
    func makeAnnexBWriters() throws -> [AnnexBWriter] {
        try settings.outputs.compactMap { target -> AnnexBWriter? in
            guard case .annexBFile(let path, let maxFrames) = target else { return nil }
            do {
                return try AnnexBWriter(path: path, frameLimit: maxFrames)
            } catch {
                throw PipelineError.outputUnavailable(output: path, reason: "\(error)")
            }
        }
    }
}
