import Logging
import Media

/// A PCM or float WAV file played in a loop, in real time, at the configured format (converted
/// with libswresample when the file's sample format, rate or channel count differs): music over a
/// city camera.
///
/// The file is opened and its header checked in `init`, so a bad file is a startup error. Runs
/// of `runFrames` sample frames go out when their last sample's instant has passed, stamped on
/// CLOCK_MONOTONIC from the count of frames played, and the loop's seam is seamless (the next
/// run simply continues with the file's first samples). If the file becomes unreadable while
/// playing, silence goes out in its place and the read is retried on the next run.
public final class WAVFileAudioSource: AudioSource {
    public let path: String
    public let format: AudioFormat
    /// The file's own format (before resampling).
    public let fileFormat: AudioFormat
    /// How the file stores its samples (anything but 16-bit PCM is converted by libswresample).
    public let fileSampleFormat: WAVSampleFormat
    public let runFrames: Int
    private let player: Lock<Player>
    private let thread = SourceThread(name: SourceThreadName.audio, alreadyStarted: AudioCaptureError.alreadyStarted, threadStartFailed: AudioCaptureError.threadStartFailed(errno:))
    private let counters = AudioSourceCounters()
    private let logger: Logger

    /// The file and the resampler, owned by the playing thread while it runs.
    private struct Player: ~Copyable {
        var input: WAVFileInput
        var resampler: WAVResampler?
    }

    public init(path: String, format: AudioFormat, runFrames: Int = 1024, logger: Logger = Logger(label: "camcast.audio")) throws(AudioCaptureError) {
        precondition(runFrames > 0)
        let input = try WAVFileInput(path: path)
        self.path = path
        self.format = format
        self.fileFormat = input.header.format
        self.fileSampleFormat = input.header.sampleFormat
        self.runFrames = runFrames
        self.logger = logger
        let header = input.header
        let resampler = header.format == format && header.sampleFormat == .signed16
            ? nil : try WAVResampler(from: header.format, sampleFormat: header.sampleFormat, to: format)
        player = Lock(Player(input: input, resampler: resampler))
    }

    public var status: AudioSourceStatus { counters.status }

    public func start(deliver: @escaping @Sendable (AudioFrame) -> Void) throws {
        let format = self.format
        let runFrames = self.runFrames
        let counters = self.counters
        let thread = self.thread
        let logger = self.logger
        let path = self.path
        try thread.start { [self] in
            // The lock is held for the whole run of the thread: nothing else touches the player.
            player.withLock { player in
                player.input.rewind()
                var clock = SampleClock(rate: format.sampleRate, origin: .now())
                var pending: [Int16] = []
                let runSamples = runFrames * format.channels
                while thread.isRunning {
                    var failure: AudioCaptureError?
                    func fill(_ samples: Int) throws(AudioCaptureError) {
                        while pending.count < samples {
                            let read = try player.input.next(frames: runFrames)
                            if let resampler = player.resampler {
                                pending.append(contentsOf: try resampler.convert(read))
                            } else {
                                pending.append(contentsOf: WAVFileInput.signed16(read))
                            }
                        }
                    }
                    do throws(AudioCaptureError) {
                        try fill(runSamples)
                    } catch {
                        failure = error
                    }
                    guard thread.wait(until: clock.time(ofFrame: clock.frames + Int64(runFrames))) else { return }
                    // After a stall the file skips what played meanwhile, as the clock does: the
                    // sound of an instant stays with the pictures of that instant (restarting the
                    // clock without skipping put every later beep 1.1 s behind its flash).
                    var skip = Int(clock.catchUp(now: .now(), step: runFrames)) * format.channels
                    while skip > 0, failure == nil {
                        do throws(AudioCaptureError) { try fill(runSamples) } catch { failure = error }
                        let dropped = min(skip, pending.count)
                        pending.removeFirst(dropped)
                        skip -= dropped
                    }
                    if failure == nil {
                        do throws(AudioCaptureError) { try fill(runSamples) } catch { failure = error }
                    }
                    let timestamp = clock.time(ofFrame: clock.frames)
                    clock.frames += Int64(runFrames)
                    if let failure {
                        // Keep time with silence; what was read stays for when the file reads again.
                        if counters.device.withLock({ $0 }) == .live {
                            logger.warning("WAV file unreadable; sending silence", metadata: ["path": "\(path)", "error": "\(failure)"])
                        }
                        counters.device.withLock { $0 = .silenced(reason: "\(failure)") }
                        deliver(AudioFrame(format: format, samples: [Int16](repeating: 0, count: runSamples), timestamp: timestamp))
                        counters.delivered(sampleFrames: runFrames, substituted: true)
                        continue
                    }
                    counters.device.withLock { $0 = .live }
                    deliver(AudioFrame(format: format, samples: Array(pending[0..<runSamples]), timestamp: timestamp))
                    pending.removeFirst(runSamples)
                    counters.delivered(sampleFrames: runFrames, substituted: false)
                }
            }
        }
    }

    public func stop() { thread.stop() }
}
