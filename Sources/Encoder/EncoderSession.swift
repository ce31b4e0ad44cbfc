import Logging
import Media
import Synchronization

/// A live encoding session: frames in, `EncodedPicture`s out through the output handler. One
/// session shape for both codecs and every backend: `settings.implementation` and `settings.codec`
/// pick it (libx264 for H.264, libx265 for H.265, or a named libavcodec encoder); the lock, the keyframe schedule in capture time, the recovery policy and delivery
/// outside the lock are the session's, not the backend's.
///
/// The session takes frames already in its picture format: I420 or NV12 at `settings.size`, as the
/// conversion stage (`Conversion`'s `ConversionStage`, on the capture thread) makes them. Any
/// other frame is refused with `.unsupportedPixelFormat` or `.frameSizeMismatch`; nothing is
/// converted or scaled under the session's locks.
///
/// The encoder handle sits behind one `Mutex`, so `requestKeyframe`, `reconfigure` and `close` may
/// be called from any thread at any time (the lock of seeds 000/004). That lock guards the encoder
/// and nothing else: pictures are delivered on the thread that called `encode` or `flush`, with no
/// lock held, so the output handler may call back into the session (change the bitrate) or hand
/// the pictures to the next stage. `encode` and `flush` are called by one thread at a time, in the
/// pipeline the encoder stage's (`EncoderStage`), which binds `confinement` to itself: debug
/// builds then check every backend call against it. A keyframe request takes no lock: it is a
/// message (`KeyframeRequests`) the next encode reads; so is a new bitrate
/// (`requestedBitrateKbps`), which the next encode gives the backend.
public final class EncoderSession: Sendable {
    /// The settings the session was opened with (bitrate and keyframe interval may since have been
    /// reconfigured; `bitrateKbps` and `keyframeIntervalInFrames` say what is in force).
    public let settings: EncoderSettings
    let logger: Logger
    let recovery: EncoderRecoveryPolicy
    private let output: @Sendable (EncodedPicture) -> Void
    let state: Lock<State>
    /// Keyframe requests waiting for the next encode; read by the encode, not under `state`'s guard.
    let keyframeRequests = KeyframeRequests()
    /// Opens a backend for the settings: the codec's library (`openBackend`), or a test's own.
    let backendOpener: BackendOpener
    /// The thread every backend call belongs to once bound (debug builds check it).
    public let confinement = ThreadConfinement("the encoder stage")
    /// A bitrate (kbit/s) a `reconfigure` left for the next encode to hand the backend; 0: none.
    let requestedBitrateKbps = Atomic<Int>(0)

    /// How the session opens its backend, at start and again in recovery.
    typealias BackendOpener = @Sendable (EncoderSettings, Logger) throws(EncoderError) -> any EncoderBackend

    /// Opens the codec's encoder with `settings`. Throws `EncoderError.invalidSettings` listing
    /// every problem, or `.openFailed` if the library refuses them.
    public convenience init(
        settings: EncoderSettings,
        logger: Logger,
        recovery: EncoderRecoveryPolicy = .standard,
        output: @escaping @Sendable (EncodedPicture) -> Void
    ) throws(EncoderError) {
        try self.init(
            settings: settings, logger: logger, recovery: recovery,
            backendOpener: { (settings, logger) throws(EncoderError) in try EncoderSession.openBackend(settings, logger: logger) },
            output: output)
    }

    /// Opens the session on the backend `backendOpener` makes (a test's backend).
    init(
        settings: EncoderSettings,
        logger: Logger,
        recovery: EncoderRecoveryPolicy,
        backendOpener: @escaping BackendOpener,
        output: @escaping @Sendable (EncodedPicture) -> Void
    ) throws(EncoderError) {
        let problems = settings.validate()
        guard problems.isEmpty else { throw .invalidSettings(problems) }
        let encoder = try backendOpener(settings, logger)
        self.backendOpener = backendOpener
        let headers = try encoder.streamHeaders()
        self.settings = settings
        self.logger = logger
        self.recovery = recovery
        self.output = output
        self.state = Lock(
            State(
                encoder: encoder, bitrateKbps: settings.bitrateKbps, keyframes: KeyframeSchedule(settings),
                parameterSets: headers))
        logger.info(
            "encoder opened",
            metadata: [
                "codec": "\(settings.codec.rawValue)", "encoder": "\(settings.encoderName)", "size": "\(settings.size)", "fps": "\(settings.frameRate)", "kbps": "\(settings.bitrateKbps)",
                "profile": "\(settings.codec == .h265 ? "main" : settings.profile.rawValue)", "preset": "\(settings.preset)",
                "keyint": "\(settings.keyframeIntervalInFrames)",
            ])
    }

    /// Encodes one frame; any pictures it completes are delivered before this returns.
    ///
    /// The PTS is the frame's capture time in milliseconds. The encoder must never see a PTS that does not
    /// increase, so a frame stamped at or before the previous one is moved to previous + 1 ms.
    public func encode(_ frame: VideoFrame) throws(EncoderError) {
        try checkInput(frame)
        try frame.withUnsafeBytes { (bytes) throws(EncoderError) in
            let image = X264InputImage(frame, bytes: bytes)
            var attempt = try encodeLocked(image, of: frame, recovering: false)
            if case .failed(let error, let completed) = attempt {
                // What the encoder finished before it failed still goes out, first.
                for picture in completed { output(picture) }
                // Recovery waits between tries without the lock (see +Recovery), then encodes the
                // same frame on the new encoder, which starts with an IDR anyway.
                try recreateEncoder(after: error)
                attempt = try encodeLocked(image, of: frame, recovering: true)
            }
            switch attempt {
            case .delivered(let pictures): for picture in pictures { output(picture) }
            case .failed(let error, _): throw error
            }
        }
    }

    /// Refuses a frame the encoder cannot read as it is: not I420/NV12, not at the stream's size,
    /// or with planes outside its bytes.
    private func checkInput(_ frame: VideoFrame) throws(EncoderError) {
        guard frame.pixelFormat == .i420 || frame.pixelFormat == .nv12 else { throw .unsupportedPixelFormat(frame.pixelFormat) }
        let size = VideoSize(width: frame.width, height: frame.height)
        guard size == settings.size else { throw .frameSizeMismatch(frame: size, stream: settings.size) }
        if let problem = frame.layoutProblem { throw .invalidFrame(problem) }
    }

    /// What one locked encode did: the pictures the encoder completed (none while it holds them),
    /// or an encoder failure that recovery may cure, with what it completed before failing.
    private enum Attempt {
        case delivered([EncodedPicture])
        case failed(EncoderError, completed: [EncodedPicture])
    }

    private func encodeLocked(_ image: X264InputImage, of frame: VideoFrame, recovering: Bool) throws(EncoderError) -> Attempt {
        try withState { (state) throws(EncoderError) -> Attempt in
            guard let encoder = state.encoder else { throw .closed }
            confinement.assertOnOwner("an encoder backend's send")
            applyRequestedBitrate(to: encoder)
            let pts = state.presentationTime(for: frame)
            let index = state.acceptedFrames
            let requested = keyframeRequests.take(forFrame: index)
            let forceIDR = recovering || requested || state.keyframeDue(pts: pts)
            // Only a frame the encoder took consumes the keyframe request and advances the PTS.
            var accepted = false
            defer { if !accepted { keyframeRequests.giveBack(requested, forFrame: index) } }
            var pictures: [EncodedPicture] = []
            do throws(EncoderError) {
                // A full backend hands back finished pictures before it takes this one. A receive
                // may instead use up what the backend held without finishing a picture (libavcodec
                // encoding its buffered frame into lookahead): room is made then, and the send is
                // tried again, a bounded number of times.
                var emptyReceives = 0
                while try encoder.send(image, pts: pts, forceIDR: forceIDR) == .full {
                    switch try encoder.receive() {
                    case .picture(let result): pictures.append(state.picture(from: result, codec: settings.codec))
                    case .needsInput where emptyReceives < 8: emptyReceives += 1
                    default: throw EncoderError.malformedOutput("the encoder refused a picture and had none to give back")
                    }
                }
                accepted = true
                if forceIDR { state.keyframes.recordKeyframe(input: state.acceptedFrames, pts: pts) }
                state.accept(pts: pts, of: frame, logger: logger)
                while case .picture(let result) = try encoder.receive() {
                    pictures.append(state.picture(from: result, codec: settings.codec))
                }
            } catch {
                switch error {
                case .encodeFailed where !recovering, .malformedOutput where !recovering:
                    // The failed encoder goes at once; the frames it held are lost with it. (Had it
                    // taken this frame already, the retry carries it 1 ms later: its PTS was used.)
                    state.encoder = nil
                    state.inFlight.removeAll()
                    return .failed(error, completed: pictures)
                default: throw error
                }
            }
            return .delivered(pictures)
        }
    }

    /// Makes the next frame the session accepts an IDR picture (e.g. for a new RTMP connection).
    ///
    /// Returns that frame's index, counting from 0 the frames `encode` accepted (a frame it throws
    /// for does not count, and leaves the request pending for the next one).
    /// Returns at once from any thread, even while a picture is being encoded.
    @discardableResult
    public func requestKeyframe() -> Int64 {
        keyframeRequests.request()
    }

    /// Changes the IDR interval live, with the same rule as the settings: the smaller of
    /// `keyframeIntervalFrames` and frame rate × `keyframeIntervalSeconds`. The interval runs from
    /// the last IDR, so if that is already further back, the next frame is an IDR.
    ///
    /// x264_encoder_reconfig ignores `i_keyint_max` (x264's encoder_try_reconfig does not copy it),
    /// which is why the session places scheduled IDRs itself.
    public func reconfigure(keyframeIntervalSeconds: Double, keyframeIntervalFrames: Int? = nil) throws(EncoderError) {
        var changed = settings
        changed.keyframeIntervalSeconds = keyframeIntervalSeconds
        changed.keyframeIntervalFrames = keyframeIntervalFrames
        let problems = changed.validate()
        guard problems.isEmpty else { throw .invalidSettings(problems) }
        try withState { (state) throws(EncoderError) in
            guard state.encoder != nil else { throw .closed }
            state.keyframes.change(to: changed)
        }
        logger.debug("encoder keyframe interval changed", metadata: [
            "frames": "\(changed.keyframeIntervalInFrames)", "seconds": "\(keyframeIntervalSeconds)",
        ])
    }

    /// Changes the average bitrate live (`x264_encoder_reconfig`, `x265_encoder_reconfig`); the VBV peak and buffer follow
    /// with the session's factor and window. The backend takes it with the next picture, on the
    /// thread that encodes (the caller never calls into the backend); an encoder that cannot
    /// change its rate live is refused here.
    public func reconfigure(bitrateKbps: Int) throws(EncoderError) {
        guard EncoderSettings.bitrateRangeKbps.contains(bitrateKbps) else {
            let range = EncoderSettings.bitrateRangeKbps
            throw .invalidSettings([
                EncoderSettingsProblem(
                    setting: "encoder.bitrateKbps", value: "\(bitrateKbps)",
                    allowed: "\(range.lowerBound)...\(range.upperBound) kbit/s")
            ])
        }
        guard settings.changesBitrateLive else {
            throw .bitrateChangeUnsupported(encoder: settings.encoderName, kbps: withState { $0.bitrateKbps })
        }
        try withState { (state) throws(EncoderError) in
            guard state.encoder != nil else { throw .closed }
            state.bitrateKbps = bitrateKbps
            requestedBitrateKbps.store(bitrateKbps, ordering: .releasing)
        }
        logger.debug("encoder bitrate changed", metadata: ["kbps": "\(bitrateKbps)"])
    }

    /// Gives the backend the bitrate a `reconfigure` left, if any (with the session's lock held,
    /// before a send). A backend that refuses keeps its rate; the refusal is logged.
    private func applyRequestedBitrate(to encoder: any EncoderBackend) {
        let kbps = requestedBitrateKbps.exchange(0, ordering: .acquiring)
        guard kbps > 0 else { return }
        do {
            try encoder.reconfigure(bitrateKbps: kbps)
        } catch {
            logger.warning("the encoder refused the new bitrate", metadata: ["kbps": "\(kbps)", "error": "\(error)"])
        }
    }

    /// Sends the end of the stream, receives the pictures the encoder still holds (lookahead,
    /// B-frames, queued buffers) and delivers them. No backend takes a picture after the end of
    /// its stream, so the session is closed afterwards.
    public func flush() throws(EncoderError) {
        let pictures = try withState { (state) throws(EncoderError) -> [EncodedPicture] in
            guard let encoder = state.encoder else { throw .closed }
            defer {
                state.encoder = nil
                state.isShutDown = true
            }
            confinement.assertOnOwner("an encoder backend's flush")
            try encoder.sendEndOfStream()
            var pictures: [EncodedPicture] = []
            while true {
                switch try encoder.receive() {
                case .picture(let result): pictures.append(state.picture(from: result, codec: settings.codec))
                case .drained: return pictures
                case .needsInput:
                    // Against the contract; what it returned so far still goes out.
                    logger.warning("encoder asked for input after the end of the stream; drain stopped")
                    return pictures
                }
            }
        }
        for picture in pictures { output(picture) }
        logger.info("encoder flushed and closed")
    }

    /// Releases the encoder without draining it. Idempotent; `encode` throws `.closed` afterwards.
    public func close() {
        let wasOpen = withState { state in
            defer {
                state.encoder = nil
                state.isShutDown = true
            }
            return state.encoder != nil
        }
        if wasOpen { logger.info("encoder closed") }
    }

    /// Opens the backend for `settings.implementation` and `settings.codec`.
    static func openBackend(_ settings: EncoderSettings, logger: Logger) throws(EncoderError) -> any EncoderBackend {
        switch (settings.implementation, settings.codec) {
        case (.avcodec, _): try AVCodecEncoder(settings: settings, logger: logger)
        case (.library, .h264): try X264Encoder(settings: settings, logger: logger)
        case (.library, .h265): try X265Encoder(settings: settings, logger: logger)
        }
    }
}
