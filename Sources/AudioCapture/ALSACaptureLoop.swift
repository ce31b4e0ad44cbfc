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

    func run(thread: AudioSourceThread, pcm: inout ALSAPCM?) {
        /// End of the last delivered sample: where stand-in silence starts, and what a reopened
        /// device's first samples must not go back before.
        var end: MonotonicTime?
        while thread.isRunning {
            if let live = pcm {
                do throws(ALSAPCM.Failure) {
                    guard let capture = try readRecovering(live) else { continue }
                    end = send(capture, after: end)
                } catch {
                    guard case .lost(let code, let message) = error else { continue }
                    let reason = "\(message) (\(code))"
                    logger.warning("audio device lost; sending silence and reopening every second", metadata: ["device": "\(device)", "error": "\(reason)"])
                    counters.device.withLock { $0 = .silenced(reason: reason) }
                    pcm = nil  // closes it
                }
            } else {
                pcm = sendSilenceUntilReopened(thread: thread, from: end ?? .now(), end: &end)
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

    /// Delivers live samples; after stand-in silence, the part of them that overlaps it is dropped
    /// so timestamps never go back. Returns the new end.
    private func send(_ capture: ALSAPCM.Capture, after end: MonotonicTime?) -> MonotonicTime {
        var samples = capture.samples
        var timestamp = capture.timestamp
        if let end, timestamp < end, counters.substitutedSampleFrames.load(ordering: .relaxed) > 0 {
            let overlap = Int(end.nanoseconds - timestamp.nanoseconds) * format.sampleRate / 1_000_000_000
            let dropped = min(overlap, samples.count / format.channels)
            samples.removeFirst(dropped * format.channels)
            timestamp = timestamp.adding(nanoseconds: UInt64(dropped) * 1_000_000_000 / UInt64(format.sampleRate))
        }
        let frames = samples.count / format.channels
        guard frames > 0 else { return end ?? timestamp }
        deliver(AudioFrame(format: format, samples: samples, timestamp: timestamp))
        counters.delivered(sampleFrames: frames, substituted: false)
        return timestamp.adding(nanoseconds: UInt64(frames) * 1_000_000_000 / UInt64(format.sampleRate))
    }

    /// Sends silence from `start` on, continuing the live timestamps, and tries to reopen the
    /// device every interval. Returns the reopened device, or nil once stopped.
    private func sendSilenceUntilReopened(thread: AudioSourceThread, from start: MonotonicTime, end: inout MonotonicTime?) -> ALSAPCM? {
        var clock = SampleClock(rate: format.sampleRate, origin: start)
        let run = Self.silenceRunFrames
        let zeros = [Int16](repeating: 0, count: run * format.channels)
        var nextAttempt = MonotonicTime.now().adding(nanoseconds: reopenIntervalNanoseconds)
        var lastError = ""
        while thread.isRunning {
            let due = clock.time(ofFrame: clock.frames + Int64(run))
            guard thread.wait(until: min(due, nextAttempt)) else { return nil }
            let now = MonotonicTime.now()
            if now >= due {
                clock.catchUp(now: now)
                deliver(AudioFrame(format: format, samples: zeros, timestamp: clock.time(ofFrame: clock.frames)))
                clock.frames += Int64(run)
                end = clock.time(ofFrame: clock.frames)
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
