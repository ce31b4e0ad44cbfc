import AudioCapture
import AudioEncoder
import Logging
import Media
import Synchronization

/// The sound beside the video: an audio source on its own thread feeding an AAC session, whose
/// packets go to `output` (the pipeline's interleaver, then the same outputs as the video).
///
/// The session is made when the video's first picture fixes stream time 0 (`videoStarted`), with
/// that picture's capture instant as its origin, so both tracks count from the same instant on
/// the same CLOCK_MONOTONIC. Audio that arrives before then is held (up to a second) and encoded
/// first once the session exists: the first picture is known only after its encode, and the
/// sound captured since its capture instant belongs to the stream (dropping it started the audio
/// track 30–115 ms after the video, 300–400 ms on a loaded VM). The session drops what precedes
/// the origin.
///
/// Its life is one enum behind one lock. A reload replaces the source (and the session, if the
/// format or bit rate changed) while the video runs on (AudioStage+Replace).
public final class AudioStage: Sendable {
    enum Phase {
        case idle
        /// Source running; `session` is nil until the video's first picture.
        case running(source: any AudioSource, session: AACEncoderSession?)
        /// A reload is swapping the source: `source` is the one it replaces (stopped or stopping,
        /// kept to go back to and for its figures); what is delivered meanwhile goes to `session`.
        case replacing(source: any AudioSource, session: AACEncoderSession?)
        /// The source is kept for its final figures.
        case stopped(source: (any AudioSource)?)
    }

    struct State {
        var phase = Phase.idle {
            didSet { changes.count.add(1, ordering: .releasing) }
        }
        var settings: AudioSettings
        /// The video's first picture, in capture nanoseconds; nil until it came.
        var origin: MonotonicTime?
        /// Counters of sources replaced by a reload, carried into the totals.
        var retired = AudioSourceStatus()
        /// Audio delivered while the session waits for the video's first picture, oldest first.
        var pending: [AudioFrame] = []
        /// The stage's `phaseChanges`, moved by every change of `phase`.
        let changes: PhaseChanges
    }

    /// How many times `state.phase` changed: a source's deliveries keep the session they last
    /// looked up and take the lock again only when this moved (issue 26: lock takes per frame).
    final class PhaseChanges: Sendable {
        let count = Atomic<Int>(0)
    }
    let phaseChanges = PhaseChanges()

    /// What one source's deliveries last looked up. Each source gets a `deliver` closure, and so a
    /// cache, of its own, which only that source's thread calls.
    private final class DeliveryCache: @unchecked Sendable {
        // @unchecked: read and written only by the one source thread its closure was given to;
        // debug builds check it on every delivery (the first one binds that thread: the cache is
        // made before the source's thread exists).
        let confinement = ThreadConfinement("the audio source")
        var phaseChanges = -1
        var session: AACEncoderSession?
    }

    let state: Lock<State>
    let logger: Logger
    private let startMilliseconds: Int64
    /// How late after the picture the first sample may start and still be led in with silence
    /// (`AudioLeadIn`): what the consumer of the packets can still put in order.
    private let leadInLimitNanoseconds: UInt64
    /// Each encode's packets and the session's next packet time, for the interleaver, in one call
    /// (AACEncoderSession's `deliver`).
    private let deliverPackets: @Sendable (_ packets: [MediaPacket], _ next: Int64?) -> Void
    let onFailure: @Sendable (String) -> Void
    /// Told of a reload's new settings once the old encoder's last packets went out and before
    /// the new source starts, when the format or bit rate changes (the interleaver's delay
    /// follows the sample rate).
    let encoderChanging: @Sendable (AudioSettings) -> Void
    /// Makes the source for a settings (`makeSource`, unless a test gives its own).
    let sources: @Sendable (AudioSettings) throws -> any AudioSource
    /// AAC frames encoded (packets delivered), for the status line and the stop summary.
    public let encodedFrames = Atomic<Int>(0)

    public init(
        settings: AudioSettings, logger: Logger, startMilliseconds: Int64, leadInLimitNanoseconds: UInt64 = 0,
        deliver: @escaping @Sendable (_ packets: [MediaPacket], _ next: Int64?) -> Void, onFailure: @escaping @Sendable (String) -> Void,
        encoderChanging: @escaping @Sendable (AudioSettings) -> Void = { _ in },
        sources: (@Sendable (AudioSettings) throws -> any AudioSource)? = nil
    ) {
        self.sources = sources ?? { [logger] settings in try AudioStage.makeSource(settings, logger: logger) }
        state = Lock(State(settings: settings, changes: phaseChanges))
        self.logger = logger
        self.startMilliseconds = startMilliseconds
        self.leadInLimitNanoseconds = leadInLimitNanoseconds
        deliverPackets = deliver
        self.onFailure = onFailure
        self.encoderChanging = encoderChanging
    }

    /// Each packet to `output`, one at a time (the tests' collectors).
    convenience init(
        settings: AudioSettings, logger: Logger, startMilliseconds: Int64, output: @escaping @Sendable (MediaPacket) -> Void,
        onFailure: @escaping @Sendable (String) -> Void, sources: (@Sendable (AudioSettings) throws -> any AudioSource)? = nil
    ) {
        self.init(
            settings: settings, logger: logger, startMilliseconds: startMilliseconds,
            deliver: { packets, _ in for packet in packets { output(packet) } }, onFailure: onFailure, sources: sources)
    }

    public var settings: AudioSettings { state.withLock { $0.settings } }

    /// The source for `settings`. A WAV file that cannot be opened throws.
    static func makeSource(_ settings: AudioSettings, logger: Logger) throws -> any AudioSource {
        switch settings.source {
        case .silent:
            return SilentAudioSource(format: settings.format)
        case .file(let path):
            return try WAVFileAudioSource(path: path, format: settings.format, logger: logger)
        case .device(let name):
            return ALSAAudioSource(device: name, format: settings.format, logger: logger)
        }
    }

    /// Checks that a session can be opened with these settings (fails fast, at start). Opens
    /// no session: one used to, and the log said "opened, closed, opened" at every start.
    public static func checkEncoder(_ settings: AudioSettings) throws {
        try AACEncoderSession.check(encoderSettings(settings))
    }

    static func encoderSettings(_ settings: AudioSettings) -> AACEncoderSettings {
        AACEncoderSettings(format: settings.format, bitrateKbps: settings.bitrateKbps)
    }

    public func start() throws {
        let settings = state.withLock { $0.settings }
        let source = try sources(settings)
        try source.start(deliver: deliver)
        let started = state.withLock { state -> Bool in
            guard case .idle = state.phase else { return false }
            // The video's first picture may have come first (a device slow to open, a loaded
            // machine): then the session opens here, or the track would never start.
            state.phase = .running(source: source, session: state.origin.flatMap { makeSession(state.settings, origin: $0) })
            return true
        }
        if !started { source.stop() }
        logger.info("audio started", metadata: ["audio": "\(settings)"])
    }

    var deliver: @Sendable (AudioFrame) -> Void {
        let cache = DeliveryCache()
        return { [self] frame in
            cache.confinement.assertOnFirstCaller("an audio delivery")
            // Nothing changed since the last delivery: the same session, without the lock.
            let changes = phaseChanges.count.load(ordering: .acquiring)
            if changes == cache.phaseChanges, let session = cache.session {
                encode(frame, held: [], on: session)
                return
            }
            // Only the source's thread calls this, so the held frames go out before this one.
            let (session, held) = state.withLock { state -> (AACEncoderSession?, [AudioFrame]) in
                let session: AACEncoderSession?
                switch state.phase {
                case .running(_, let running), .replacing(_, let running): session = running
                case .idle: session = nil  // the source's first runs, before `start` returned
                case .stopped: return (nil, [])
                }
                guard let session else {
                    state.pending.append(frame)
                    var samples = state.pending.reduce(0) { $0 + $1.frameCount }
                    while samples > frame.format.sampleRate, let oldest = state.pending.first {
                        samples -= oldest.frameCount
                        state.pending.removeFirst()
                    }
                    return (nil, [])
                }
                defer { state.pending = [] }
                return (session, state.pending)
            }
            (cache.phaseChanges, cache.session) = (changes, session)
            guard let session else { return }
            encode(frame, held: held, on: session)
        }
    }

    private func encode(_ frame: AudioFrame, held: [AudioFrame], on session: AACEncoderSession) {
        do throws(AACEncoderError) {
            for earlier in held where earlier.format == frame.format { try session.encode(earlier) }
            try session.encode(frame)
        } catch .closed {
            // Closed at stop between the lookup and the call. A session closed under a
            // running source is a track lost: that is a failure, not silence.
            let stopped = state.withLock { state in
                if case .stopped = state.phase { true } else { false }
            }
            if !stopped { onFailure("audio encoder: closed while its source runs") }
        } catch {
            onFailure("audio encoder: \(error)")
        }
    }

    /// The video's first picture fixed stream time 0 at `originMilliseconds` (capture clock):
    /// open the session on that origin. Called on the capture thread, once.
    public func videoStarted(originMilliseconds: Int64) {
        let origin = MonotonicTime(nanoseconds: UInt64(max(0, originMilliseconds)) * 1_000_000)
        state.withLock { state in
            guard state.origin == nil else { return }
            state.origin = origin
            guard case .running(let source, nil) = state.phase else { return }
            state.phase = .running(source: source, session: makeSession(state.settings, origin: origin))
        }
    }

    /// A session for `settings` on `origin`, its packets to `deliverPackets`. The run's first
    /// session leads in with silence where its source started after the picture
    /// (`leadInLimitNanoseconds`); a reload's replacement continues the track instead.
    func openSession(_ settings: AudioSettings, origin: MonotonicTime, first: Bool = false) throws(AACEncoderError) -> AACEncoderSession {
        try AACEncoderSession(
            settings: Self.encoderSettings(settings), streamOrigin: origin, streamStartMilliseconds: startMilliseconds,
            leadInLimitNanoseconds: first ? leadInLimitNanoseconds : 0, logger: logger
        ) { [self] packets, next in
            encodedFrames.add(packets.count, ordering: .relaxed)
            deliverPackets(packets, next)
        }
    }

    /// `openSession`, a failure failing the run.
    private func makeSession(_ settings: AudioSettings, origin: MonotonicTime) -> AACEncoderSession? {
        do {
            return try openSession(settings, origin: origin, first: true)
        } catch {
            onFailure("audio encoder: \(error)")
            return nil
        }
    }

    /// Stops the source and flushes the session (its last packets go out). Idempotent.
    public func stop() {
        let (source, session) = state.withLock { state -> ((any AudioSource)?, AACEncoderSession?) in
            switch state.phase {
            case .running(let source, let session), .replacing(let source, let session):
                // A reload under way sees `.stopped` and stops what it started itself.
                state.phase = .stopped(source: source)
                return (source, session)
            case .idle, .stopped:
                return (nil, nil)
            }
        }
        source?.stop()
        do throws(AACEncoderError) {
            try session?.flush()
        } catch .closed {
            // A reload flushed it as this stop came.
        } catch {
            logger.warning("audio encoder flush failed", metadata: ["error": "\(error)"])
        }
    }

    /// The source's figures (and those of sources a reload replaced).
    public var status: AudioSourceStatus {
        let (current, retired) = state.withLock { state -> (AudioSourceStatus?, AudioSourceStatus) in
            switch state.phase {
            case .running(let source, _), .replacing(let source, _), .stopped(let source?): return (source.status, state.retired)
            default: return (nil, state.retired)
            }
        }
        var total = current ?? AudioSourceStatus()
        total.deliveredFrames += retired.deliveredFrames
        total.xruns += retired.xruns
        total.reopens += retired.reopens
        return total
    }
}
