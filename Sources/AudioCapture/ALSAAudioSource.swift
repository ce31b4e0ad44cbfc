import Logging
import Media

/// Sound from an ALSA capture device (`hw:1,0`, `plughw:CARD=Camera,DEV=0`, `default`) on its own
/// thread, stamped on CLOCK_MONOTONIC by the kernel (the clock of the video frames), so lip sync
/// holds over hours.
///
/// Overruns are recovered and counted. A device that goes away (a USB microphone unplugged, the
/// card removed) is handled like a camera: silence goes out in its place with timestamps that
/// continue the live ones, the device is reopened every `reopenIntervalSeconds`, and the stream
/// never stops. A device missing at start is the same case (silence, and a retry every interval);
/// only a format the device refuses fails `start`: a configuration error, not a fault to ride out.
public final class ALSAAudioSource: AudioSource {
    public let device: String
    public let format: AudioFormat
    let reopenIntervalNanoseconds: UInt64
    private let thread = SourceThread(name: SourceThreadName.audio, alreadyStarted: AudioCaptureError.alreadyStarted, threadStartFailed: AudioCaptureError.threadStartFailed(errno:))
    private let counters = AudioSourceCounters()
    private let logger: Logger

    public init(device: String, format: AudioFormat, reopenIntervalSeconds: Double = 1, logger: Logger = Logger(label: "camcast.audio")) {
        self.device = device
        self.format = format
        self.reopenIntervalNanoseconds = UInt64(reopenIntervalSeconds * 1e9)
        self.logger = logger
    }

    public var status: AudioSourceStatus { counters.status }

    /// Opens and configures the device on the calling thread (so its errors reach the caller),
    /// then captures on a thread of its own. A device that is not there yet (a USB microphone that
    /// enumerates after the unit started), or busy, is what a device lost mid-run is: silence goes
    /// out and it is tried every `reopenIntervalSeconds`. Only a format it refuses throws.
    public func start(deliver: @escaping @Sendable (AudioFrame) -> Void) throws {
        // Not a second open of a device this source already holds.
        guard !thread.isRunning else { throw AudioCaptureError.alreadyStarted }
        let opened = Lock<ALSAPCM?>(try openOrWait())
        let loop = ALSACaptureLoop(
            device: device, format: format, reopenIntervalNanoseconds: reopenIntervalNanoseconds, counters: counters, logger: logger,
            deliver: deliver)
        let thread = self.thread
        try thread.start {
            var pcm = opened.withLock { held -> ALSAPCM? in
                defer { held = nil }
                return held
            }
            loop.run(thread: thread, pcm: &pcm)
        }
    }

    public func stop() { thread.stop() }

    /// The device opened, or nil when it is not there yet (silence until a reopen finds it).
    private func openOrWait() throws(AudioCaptureError) -> ALSAPCM? {
        do {
            let pcm = try ALSAPCM(device: device, format: format)
            counters.device.withLock { $0 = .live }
            logger.info("audio device opened", metadata: ["device": "\(device)", "format": "\(format)"])
            return pcm
        } catch {
            guard !error.isFinalAtStart else { throw error }
            counters.device.withLock { $0 = .silenced(reason: error.absenceReason) }
            logger.warning("audio device not available; sending silence and trying it every second", metadata: [
                "device": "\(device)", "error": "\(error)",
            ])
            return nil
        }
    }
}
