import Logging
import Media

/// The capture thread's work: read the device while it is there, send silence while it is not,
/// and try to reopen it every interval.
struct ALSACaptureLoop: Sendable {
    let device: String
    let format: AudioFormat
    let reopenIntervalNanoseconds: UInt64
    let counters: AudioSourceCounters
    let logger: Logger
    let deliver: @Sendable (AudioFrame) -> Void

    /// Silence goes out in runs of this many sample frames (one AAC frame).
    static let silenceRunFrames = 1024

    /// A device that brings nothing for this long without reporting an error (a wedged USB
    /// microphone) is treated as gone, so the stream's audio never stops.
    static let stallNanoseconds: Int64 = 1_000_000_000

    func run(thread: SourceThread<AudioCaptureError>, pcm: inout ALSAPCM?) {
        var timeline = CaptureTimeline(rate: format.sampleRate)
        var lastSamples = MonotonicTime.now()
        while thread.isRunning {
            if let live = pcm {
                do throws(ALSAPCM.Failure) {
                    let xruns = counters.xruns.load(ordering: .relaxed)
                    guard let capture = try readRecovering(live) else {
                        // An overrun is the opposite of a stall: the device had too much for us.
                        if counters.xruns.load(ordering: .relaxed) != xruns { lastSamples = .now() }
                        if MonotonicTime.now().nanoseconds(since: lastSamples) > Self.stallNanoseconds {
                            throw .lost(code: 0, message: "no samples for a second")
                        }
                        continue
                    }
                    send(capture, on: &timeline)
                    // After the delivery: a consumer that took long is not the device stalling.
                    lastSamples = .now()
                } catch {
                    guard case .lost(let code, let message) = error else { continue }
                    let reason = code == 0 ? message : "\(message) (\(code))"
                    logger.warning("audio device lost; sending silence and reopening every second", metadata: ["device": "\(device)", "error": "\(reason)"])
                    counters.device.withLock { $0 = .silenced(reason: reason) }
                    pcm = nil  // closes it
                }
            } else {
                pcm = sendSilenceUntilReopened(thread: thread, timeline: &timeline)
                lastSamples = .now()
            }
        }
    }

    /// One read, with overruns recovered and counted (then nothing this time round).
    private func readRecovering(_ pcm: ALSAPCM) throws(ALSAPCM.Failure) -> ALSAPCM.Capture? {
        do {
            return try pcm.read(waitingUpTo: 100)
        } catch {
            guard case .xrun(let code) = error else { throw error }
            let count = counters.xruns.add(1, ordering: .relaxed).newValue
            if count == 1 || count % 100 == 0 {
                logger.warning("audio capture overrun; samples lost, recovered", metadata: ["device": "\(device)", "xruns": "\(count)"])
            }
            try pcm.recover(from: code)
            return nil
        }
    }

    /// Delivers live samples at their place on the time line (see CaptureTimeline).
    private func send(_ capture: ALSAPCM.Capture, on timeline: inout CaptureTimeline) {
        let frames = capture.samples.count / format.channels
        let (timestamp, drop) = timeline.place(frames: frames, measured: capture.timestamp)
        guard drop < frames else { return }
        let samples = drop == 0 ? capture.samples : Array(capture.samples[(drop * format.channels)...])
        deliver(AudioFrame(format: format, samples: samples, timestamp: timestamp))
        counters.delivered(sampleFrames: frames - drop, substituted: false)
    }

    /// Sends silence continuing the live time line, and tries to reopen the device every
    /// interval. Returns the reopened device, or nil once stopped.
    private func sendSilenceUntilReopened(thread: SourceThread<AudioCaptureError>, timeline: inout CaptureTimeline) -> ALSAPCM? {
        var clock = SampleClock(rate: format.sampleRate, origin: timeline.end ?? .now())
        let run = Self.silenceRunFrames
        let zeros = [Int16](repeating: 0, count: run * format.channels)
        var nextAttempt = MonotonicTime.now().adding(nanoseconds: reopenIntervalNanoseconds)
        var lastError = ""
        while thread.isRunning {
            let due = clock.time(ofFrame: clock.frames + Int64(run))
            guard thread.wait(until: min(due, nextAttempt)) else { return nil }
            let now = MonotonicTime.now()
            if now >= due {
                clock.catchUp(now: now, step: run)
                let timestamp = clock.time(ofFrame: clock.frames)
                deliver(AudioFrame(format: format, samples: zeros, timestamp: timestamp))
                clock.frames += Int64(run)
                timeline.append(frames: run, at: timestamp)
                counters.delivered(sampleFrames: run, substituted: true)
            }
            if now >= nextAttempt {
                let reason = counters.device.withLock { state -> String in
                    let reason: String
                    switch state {
                    case .silenced(let why), .reopening(let why): reason = why
                    case .live: reason = "device lost"
                    }
                    state = .reopening(reason: reason)
                    return reason
                }
                do {
                    let pcm = try ALSAPCM(device: device, format: format)
                    counters.reopens.add(1, ordering: .relaxed)
                    counters.device.withLock { $0 = .live }
                    logger.info("audio device back", metadata: ["device": "\(device)"])
                    return pcm
                } catch {
                    if "\(error)" != lastError { logger.debug("audio device still unavailable", metadata: ["device": "\(device)", "error": "\(error)"]) }
                    lastError = "\(error)"
                    counters.device.withLock { $0 = .silenced(reason: reason) }
                    nextAttempt = MonotonicTime.now().adding(nanoseconds: reopenIntervalNanoseconds)
                }
            }
        }
        return nil
    }
}
