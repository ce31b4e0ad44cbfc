import Logging
import Media
import Synchronization

/// A live encoding session: frames in, `EncodedPicture`s out through the output handler. One
/// session shape for both codecs: `settings.codec` picks the backend (libx264 for H.264, libx265
/// for H.265); the lock, the keyframe schedule in capture time, the recovery policy and delivery
/// outside the lock are the session's, not the backend's.
///
/// The session takes frames already in its picture format: I420 or NV12 at `settings.size`, as the
/// conversion stage (`Conversion`'s `ConversionStage`, on the capture thread) makes them. Any
/// other frame is refused with `.unsupportedPixelFormat` or `.frameSizeMismatch`; nothing is
/// converted or scaled under the session's locks.
///
/// The encoder handle sits behind one `Mutex`, so `encode`, `requestKeyframe`, `reconfigure`, `flush`
/// and `close` may be called from any thread at any time (the lock of seeds 000/004). That lock
/// guards the encoder and nothing else: pictures are delivered on the thread that called `encode` or
/// `flush`, after the lock is released, so the output handler may call back into the session
/// (change the bitrate). A second lock, `producer`, keeps the pictures of concurrent
/// `encode`/`flush` calls in order; reconfiguration never takes it. A keyframe request takes
/// neither: it is a message (`KeyframeRequests`) the next encode reads.
public final class EncoderSession: Sendable {
    /// The settings the session was opened with (bitrate and keyframe interval may since have been
    /// reconfigured; `bitrateKbps` and `keyframeIntervalInFrames` say what is in force).
    public let settings: EncoderSettings
    let logger: Logger
    let recovery: EncoderRecoveryPolicy
    private let output: @Sendable (EncodedPicture) -> Void
    let state: Mutex<State>
    /// Keyframe requests waiting for the next encode; read by the encode, not under `state`'s guard.
    let keyframeRequests = KeyframeRequests()
    /// Held by `encode` and `flush` from the encoder call until their pictures are delivered, so
    /// pictures reach the handler in the order the encoder produced them. Never taken under `state`.
    private let producer = Mutex(())

    /// Opens the codec's encoder with `settings`. Throws `EncoderError.invalidSettings` listing
    /// every problem, or `.openFailed` if the library refuses them.
    public init(
        settings: EncoderSettings,
        logger: Logger,
        recovery: EncoderRecoveryPolicy = .standard,
        output: @escaping @Sendable (EncodedPicture) -> Void
    ) throws(EncoderError) {
        let problems = settings.validate()
        guard problems.isEmpty else { throw .invalidSettings(problems) }
        let encoder = try Self.openBackend(settings, logger: logger)
        let headers = try encoder.streamHeaders()
        self.settings = settings
        self.logger = logger
        self.recovery = recovery
        self.output = output
        self.state = Mutex(
            State(
                encoder: encoder, bitrateKbps: settings.bitrateKbps, keyframes: KeyframeSchedule(settings),
                parameterSets: headers))
        logger.info(
            "encoder opened",
            metadata: [
                "codec": "\(settings.codec.rawValue)", "size": "\(settings.size)", "fps": "\(settings.frameRate)", "kbps": "\(settings.bitrateKbps)",
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
            try producer.withLock { (_) throws(EncoderError) in
                var attempt = try encodeLocked(image, of: frame, recovering: false)
                if case .failed(let error) = attempt {
                    // Recovery waits between tries without the lock (see +Recovery), then encodes the
                    // same frame on the new encoder, which starts with an IDR anyway.
                    try recreateEncoder(after: error)
                    attempt = try encodeLocked(image, of: frame, recovering: true)
                }
                switch attempt {
                case .delivered(let picture): if let picture { output(picture) }
                case .failed(let error): throw error
                }
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

    /// What one locked encode did: a picture (or none yet), or an encoder failure that recovery may cure.
    private enum Attempt {
        case delivered(EncodedPicture?)
        case failed(EncoderError)
    }

    private func encodeLocked(_ image: X264InputImage, of frame: VideoFrame, recovering: Bool) throws(EncoderError) -> Attempt {
        try withState { (state) throws(EncoderError) -> Attempt in
            guard let encoder = state.encoder else { throw .closed }
            let pts = state.presentationTime(for: frame)
            let index = state.acceptedFrames
            let requested = keyframeRequests.take(forFrame: index)
            let forceIDR = recovering || requested || state.keyframeDue(pts: pts)
            // Only a frame the encoder took consumes the keyframe request and advances the PTS.
            var accepted = false
            defer { if !accepted { keyframeRequests.giveBack(requested, forFrame: index) } }
            let result: EncoderBackendOutput?
            do throws(EncoderError) {
                result = try encoder.encodePicture(image, pts: pts, forceIDR: forceIDR)
            } catch {
                switch error {
                case .encodeFailed where !recovering, .malformedOutput where !recovering:
                    // The failed encoder goes at once; the frames it held are lost with it.
                    state.encoder = nil
                    state.inFlight.removeAll()
                    return .failed(error)
                default: throw error
                }
            }
            accepted = true
            if forceIDR { state.keyframes.recordKeyframe(input: state.acceptedFrames, pts: pts) }
            state.accept(pts: pts, of: frame, logger: logger)
            return .delivered(result.map { state.picture(from: $0, codec: settings.codec) })
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
    /// with the session's factor and window.
    public func reconfigure(bitrateKbps: Int) throws(EncoderError) {
        guard EncoderSettings.bitrateRangeKbps.contains(bitrateKbps) else {
            let range = EncoderSettings.bitrateRangeKbps
            throw .invalidSettings([
                EncoderSettingsProblem(
                    setting: "encoder.bitrateKbps", value: "\(bitrateKbps)",
                    allowed: "\(range.lowerBound)...\(range.upperBound) kbit/s")
            ])
        }
        try withState { (state) throws(EncoderError) in
            guard let encoder = state.encoder else { throw .closed }
            try encoder.reconfigure(bitrateKbps: bitrateKbps)
            state.bitrateKbps = bitrateKbps
        }
        logger.debug("encoder bitrate changed", metadata: ["kbps": "\(bitrateKbps)"])
    }

    /// Drains the pictures the encoder still holds (lookahead, B-frames) and delivers them.
    /// Neither library takes new frames after a drain, so the session is closed afterwards.
    public func flush() throws(EncoderError) {
        try producer.withLock { (_) throws(EncoderError) in
            let pictures = try withState { (state) throws(EncoderError) -> [EncodedPicture] in
                guard let encoder = state.encoder else { throw .closed }
                defer {
                    state.encoder = nil
                    state.isShutDown = true
                }
                var pictures: [EncodedPicture] = []
                while let result = try encoder.drainPicture() {
                    pictures.append(state.picture(from: result, codec: settings.codec))
                }
                return pictures
            }
            for picture in pictures { output(picture) }
        }
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

    /// Whether the session was closed, flushed, or gave up after failed recovery.
    public var isClosed: Bool {
        withState { $0.encoder == nil }
    }

    /// The IDR interval in force, in frames.
    public var keyframeIntervalInFrames: Int {
        withState { $0.keyframes.intervalFrames }
    }

    /// The current average bitrate in kbit/s.
    public var bitrateKbps: Int {
        withState { $0.bitrateKbps }
    }

    /// The parameter sets the next keyframe will carry (for a muxer that needs them before the
    /// first picture): [SPS, PPS] or [VPS, SPS, PPS].
    public var decoderConfiguration: DecoderConfiguration {
        DecoderConfiguration(parameterSets: withState { $0.parameterSets })
    }

    /// The H.264 SPS/PPS the next keyframe will carry (empty for H.265).
    public var parameterSets: H264ParameterSets {
        let sets = withState { $0.parameterSets }
        guard settings.codec == .h264, sets.count == 2 else { return H264ParameterSets(sps: [], pps: []) }
        return H264ParameterSets(sps: sets[0], pps: sets[1])
    }

    /// Opens the backend for `settings.codec`.
    static func openBackend(_ settings: EncoderSettings, logger: Logger) throws(EncoderError) -> any EncoderBackend {
        switch settings.codec {
        case .h264: try X264Encoder(settings: settings, logger: logger)
        case .h265: try X265Encoder(settings: settings, logger: logger)
        }
    }
}
