import Logging
import Media
import Outputs
import Synchronization

/// `idle: close` (issue 44): while every output rests by its schedule, the source and the encoder
/// rest too. The source is stopped (a camera's capture thread ends with STREAMOFF and close, so
/// another program may open the device; the test pattern stops drawing; nothing reaches the
/// encoder), the sound's too (an ALSA device is closed; `AudioStage.rest`), and the session in force is swapped for a fresh one that waits: the old one is flushed
/// on the encoder stage's thread, so pictures it still held (B-frames, lookahead) go to the stream
/// that is closing and not, hours late, to the next one, whose first picture is then an IDR of a
/// session with rate control from scratch. Opened now, not at the wake, it costs the next window
/// nothing (x265 takes a second to start). The stage's thread waits on its empty queue, the
/// capture thread is gone: between windows the daemon only looks at its schedules.
///
/// They start again `wakeLeadSeconds` before the first output's window opens (`decide`).
///
/// One thread looks every `ScheduledOutput.lookIntervalNanoseconds` (a timed wait on a
/// `WakeEvent` that `end` cuts short) at what the outputs' own looks saw
/// (`StreamOutput.scheduleRest`), evaluating no schedule itself: each output looks at its own at
/// its transitions and at once when the wall clock is set, so a clock that steps is followed
/// within one look here. A change excludes a reload (`PipelineStages.beginReload`); a look that
/// finds one under way tries again at the next.
///
/// Why still a period here (issue 39 item 4 left it): what this waits for comes from several
/// places — an output's look, the first picture, a reload's end or its new `idle:` — and the
/// wake lead's instant; signalling each needs hooks in the pipeline's reload. The look reads a
/// few locked values and does nothing unless the decision changes.
final class IdleRest: Sendable {
    /// How long before a window the source starts again. The encoder is open already; what takes
    /// time is the camera: opening and negotiating a V4L2 device, then its first frame after
    /// STREAMON (a UVC camera's sensor and auto-exposure start: up to about a second; vivid in a
    /// QEMU guest a few hundred ms). The output itself opens at the window's start (its own look,
    /// woken by the wall-clock timer within the second), connects and asks for a keyframe, which the running encoder gives at
    /// its next picture. 3 s covers the camera with room, while costing only 3 s of work per window.
    static let wakeLeadSeconds: Int64 = 3

    private let stages: PipelineStages
    private let pipeline: Pipeline
    private let logger: Logger
    private let stopEvent: WakeEvent
    private let thread = Lock<DedicatedThread?>(nil)

    init(stages: PipelineStages, pipeline: Pipeline) throws(SystemCallError) {
        self.stages = stages
        self.pipeline = pipeline
        logger = pipeline.logger
        stopEvent = try WakeEvent()
    }

    func start() throws(ThreadStartError) {
        let started = try DedicatedThread(name: "idle rest") { [self] in
            while !stopEvent.wait(until: MonotonicTime.now().adding(nanoseconds: ScheduledOutput.lookIntervalNanoseconds)) {
                look()
            }
        }
        thread.withLock { $0 = started }
    }

    /// Ends the looks and waits for the thread (a change under way finishes first). The source is
    /// left as it is: teardown stops it, resting or not.
    func end() {
        stopEvent.signal()
        thread.withLock { current in defer { current = nil }; return current }?.join()
    }

    private func look() {
        // Not before the first picture: the start's checks (the camera opens, the encoder works,
        // READY=1 waits for it) come first, resting or not.
        guard pipeline.control.framesEncoded > 0 else { return }
        let decision = Self.decide(
            idle: stages.settings.withLock { $0.idle }, rests: stages.currentOutputs.map(\.scheduleRest), now: .now())
        let resting = stages.sourceResting.load(ordering: .relaxed)
        switch (decision, resting) {
        case (.run, false):
            return
        case (.rest(let until), true):
            // A reload may have moved the next window.
            pipeline.control.counters.sourceResting.withLock { $0 = Self.describe(until) }
            return
        default:
            break
        }
        guard stages.beginReload() else { return }
        defer { stages.endReload() }
        if case .rest(let until) = decision { rest(until: until) } else { wake() }
    }

    private func rest(until: String?) {
        stages.source.withLock { $0 }?.stop()
        stages.audio.withLock { $0 }?.rest()
        stages.sourceResting.store(true, ordering: .relaxed)
        let encoder = stages.settings.withLock { $0.encoder }
        do {
            stages.replaceEncoder(with: try pipeline.openEncoderSession(encoder, output: stages.encoderOutput))
        } catch {
            // The session in force waits instead; the next window starts with its keyframe request.
            logger.warning("schedule: a fresh encoder session for the next window would not open", metadata: ["error": "\(error)"])
        }
        pipeline.control.counters.sourceResting.withLock { $0 = Self.describe(until) }
        logger.notice("schedule: every output rests; the source and the encoder rest", metadata: ["until": "\(until ?? "no window within a year")"])
    }

    private func wake() {
        guard let deliver = stages.deliver.withLock({ $0 }), let source = stages.source.withLock({ $0 }) else { return }
        logger.notice("schedule: a window opens soon; the source starts", metadata: ["lead_s": "\(Self.wakeLeadSeconds)"])
        do {
            try source.start(deliver: deliver.call)
            try stages.audio.withLock { $0 }?.wake()
        } catch {
            stages.stop.fire(.failed(.sourceFailed("could not start again after resting between windows: \(error)")))
        }
        stages.sourceResting.store(false, ordering: .relaxed)
        pipeline.control.counters.sourceResting.withLock { $0 = nil }
    }

    private static func describe(_ until: String?) -> String {
        until.map { "until \($0)" } ?? "with no window within a year"
    }
}
