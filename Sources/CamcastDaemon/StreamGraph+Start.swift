import Capture
import Media
import Synchronization

extension StreamGraph {
    /// Starts the nodes from the outputs back to the sources, so that nothing a source delivers
    /// finds its next stage closed: the outputs open (files made, connections begun), the encoder
    /// stage's thread starts, the camera opens and delivers, the sound starts. A failure ends what
    /// already started and takes away what the outputs made (no debris, issues 25 and 41); a
    /// failure of the sound alone stops the run as any failure does, once the video runs.
    func start() async throws {
        let settings = pipeline.settings
        try await Pipeline.open(outputs)
        let source: any FrameSource
        do {
            let (pipeline, stop) = (pipeline, stop)
            // The camera opens on a thread of its own: the cooperative pool keeps serving meanwhile.
            source = try await DedicatedThread.run { try pipeline.makeSource(stop: stop) }
        } catch {
            await Pipeline.abandon(outputs)
            throw error
        }
        let deliver = makeDelivery(settings)
        stages.deliver.withLock { $0 = Callback(deliver) }
        do {
            try encoderStage.start()
        } catch {
            await Pipeline.abandon(outputs)
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
            await Pipeline.abandon(outputs)
            throw error
        }
        stages.source.withLock { $0 = source }
        do {
            let audio = audio
            try await DedicatedThread.run { try audio?.start() }
        } catch {
            // The video source runs already: stop it, then let the outputs end as on any stop.
            stop.fire(.failed(.sourceFailed("audio: \(error)")))
        }
        stages.audio.withLock { $0 = audio }
        pipeline.control.attach(pipeline, stages)
        // Between schedule windows the source and the encoder rest (`idle: close`).
        idleRest.withLock { $0 = pipeline.startIdleRest(stages) }
    }

    /// The capture thread's path for each frame: source → conversion → overlay → the encoder
    /// stage's queue, each called with no lock of another held, then the snapshot tap. A frame
    /// that starts after `durationSeconds` ends the run.
    private func makeDelivery(_ settings: RunSettings) -> @Sendable (VideoFrame) -> Void {
        // A frame belongs to the run if it starts before the end, with half a frame interval of
        // slack so that rounding of the interval (33 333 333 ns at 30 fps) cannot add a frame.
        let halfInterval = Int64(settings.encoder.frameRate.frameIntervalNanoseconds / 2)
        let duration = settings.durationSeconds.map { Int64($0 * 1e9) - halfInterval }
        let stall = DebugCaptureStall.fromEnvironment()
        let wallClockLogged = Atomic<Bool>(false)
        // The closure keeps the nodes it calls, not the graph (which keeps the closure).
        let (stop, stages, clocks, conversion, overlay, encoderStage) = (stop, stages, clocks, conversion, overlay, encoderStage)
        let (counters, snapshots, logger) = (pipeline.control.counters, pipeline.control.snapshots, pipeline.logger)
        return { frame in
            stall?.waitWhileStalled()
            let (set, earlier) = clocks.firstFrame.compareExchange(expected: 0, desired: frame.timestamp.nanoseconds, ordering: .relaxed)
            let first = set ? frame.timestamp : MonotonicTime(nanoseconds: earlier)
            if let duration {
                guard frame.timestamp.nanoseconds(since: first) < duration else {
                    stop.fire(.durationElapsed)
                    return
                }
            }
            guard !stop.hasFired else { return }
            clocks.lastFrameHandedOn.store(frame.timestamp.milliseconds, ordering: .relaxed)
            counters.framesCaptured.add(1, ordering: .relaxed)
            if !wallClockLogged.exchange(true, ordering: .relaxed) { Pipeline.logFirstCapture(frame, logger: logger) }
            do {
                let planar = stages.encoderWantsI420.load(ordering: .relaxed)
                try conversion.convert(frame, planar: planar) { picture in
                    overlay.filter(picture) { filtered in
                        if !encoderStage.offer(filtered) {
                            counters.droppedAtEncoder.add(1, ordering: .relaxed)
                        }
                        // The picture as it was handed on, overlay included (the overlay's bytes go back after).
                        snapshots.offer(filtered)
                    }
                }
            } catch {
                stop.fire(.failed(.encoderFailed("\(error)")))
            }
        }
    }
}
