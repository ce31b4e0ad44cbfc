import Media

/// Digital silence at the configured format, for a stream that must carry an audio track (YouTube,
/// Facebook) when there is no microphone.
///
/// Runs of `runFrames` sample frames (1024, one AAC frame) go out on CLOCK_MONOTONIC, each when
/// its last sample's instant has passed, as a device would deliver them. Every run shares one
/// zeroed array, so the source allocates nothing after `start`.
public final class SilentAudioSource: AudioSource {
    public let format: AudioFormat
    public let runFrames: Int
    private let thread = SourceThread(name: SourceThreadName.audio, alreadyStarted: AudioCaptureError.alreadyStarted, threadStartFailed: AudioCaptureError.threadStartFailed(errno:))
    private let counters = AudioSourceCounters()

    public init(format: AudioFormat, runFrames: Int = 1024) {
        precondition(runFrames > 0)
        self.format = format
        self.runFrames = runFrames
    }

    public var status: AudioSourceStatus { counters.status }

    public func start(deliver: @escaping @Sendable (AudioFrame) -> Void) throws {
        let format = self.format
        let runFrames = self.runFrames
        let counters = self.counters
        let thread = self.thread
        try thread.start {
            var clock = SampleClock(rate: format.sampleRate, origin: .now())
            let zeros = [Int16](repeating: 0, count: runFrames * format.channels)
            while thread.isRunning {
                // A run is ready once its last sample's instant has passed.
                guard thread.wait(until: clock.time(ofFrame: clock.frames + Int64(runFrames))) else { return }
                clock.catchUp(now: .now(), step: runFrames)
                deliver(AudioFrame(format: format, samples: zeros, timestamp: clock.time(ofFrame: clock.frames)))
                clock.frames += Int64(runFrames)
                counters.delivered(sampleFrames: runFrames, substituted: false)
            }
        }
    }

    public func stop() { thread.stop() }
}
