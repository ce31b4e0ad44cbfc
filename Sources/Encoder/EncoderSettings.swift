import Media

/// Everything an encoder session (x264 or x265) is opened with.
///
/// The names follow the VideoToolbox properties of the seed tutorials (see design.md); each field's
/// comment says what it becomes in `x264_param_t`. Call `validate()` first: a session refuses settings
/// with problems, listing all of them.
public struct EncoderSettings: Sendable, Hashable {
    /// H.264 (libx264) or H.265 (libx265). For H.265, `profile`, `level` and `entropy` do not
    /// apply (Main profile, x265 picks the level, CABAC only) and `bFrames` must be 0.
    public var codec: VideoCodec
    /// The codec's own library (x264, x265), or a named libavcodec encoder (`AVCodecEncoder`);
    /// through libavcodec, preset, tune, profile and lookahead reach the encoders that have
    /// those options (libx264 does), and the rest of the fields are libavcodec's common ones.
    public var implementation: EncoderImplementation
    /// Encoded picture size; frames of another size are scaled to it.
    public var size: VideoSize
    /// How frames of another aspect ratio are fitted into `size`; letterboxed by default, so
    /// nothing is cut off or stretched.
    public var scaling: ScalingMode
    /// Nominal rate (`i_fps_num`/`i_fps_den`); the real PTS still come from capture timestamps.
    public var frameRate: FrameRate
    /// Average bitrate in kbit/s (`rc.i_bitrate`, ABR rate control).
    public var bitrateKbps: Int
    /// Rate limit as a multiple of the average: no `rateWindowSeconds` window carries more than
    /// factor × average × window (VideoToolbox `DataRateLimits`). Becomes the VBV buffer; see
    /// `vbvBufferKbits(forAverage:)`.
    public var maxRateFactor: Double
    /// The window the rate limit is measured over, in seconds.
    public var rateWindowSeconds: Double
    /// Longest time between IDR frames; ingest services want 2 s.
    public var keyframeIntervalSeconds: Double
    /// Longest distance between IDR frames in frames; when both are set the smaller wins.
    public var keyframeIntervalFrames: Int?
    /// One of x264's presets (`x264_preset_names`), fastest "ultrafast" to slowest "placebo".
    public var preset: String
    /// Adds x264's `zerolatency` tune: no lookahead, no B-frames, no frame delay.
    public var zeroLatency: Bool
    public var profile: H264Profile
    /// "3.1", "4", "4.0", "1b"…; nil lets x264 pick the lowest level that fits.
    public var level: String?
    /// B-frames between reference frames (`i_bframe`); each adds a frame of latency.
    public var bFrames: Int
    /// nil = the profile's default: CAVLC for Baseline, otherwise what the preset picks
    /// (CABAC for every preset but ultrafast).
    public var entropy: H264Entropy?
    /// Encoder threads; 0 lets x264 choose.
    public var threads: Int
    /// Frames of rate-control lookahead (`rc.i_lookahead`, `i_sync_lookahead`); nil keeps the
    /// preset/tune value (0 with `zeroLatency`).
    public var maxFrameDelay: Int?
    /// Whether x264 may insert extra IDR frames at scene cuts. Off by default so keyframes fall
    /// exactly on the interval, which ingest services and segmenters expect.
    public var sceneCutKeyframes: Bool
    /// `encoder.options`: libavcodec options for an `avcodec:NAME` encoder, in the order given.
    public var codecOptions: [EncoderOption]
    /// The longest a full VBV buffer may take to cross a link at the average rate; nil lets the
    /// rate limit alone size it. Set from the SRT outputs' latency (`SettingsResolver.burstLimitSeconds`):
    /// the receiver plays each packet a fixed latency after it was sent, so a burst that takes
    /// longer to cross arrives too late, and leaves no time to resend what the link lost.
    public var burstLimitSeconds: Double? = nil

    public init(
        size: VideoSize,
        frameRate: FrameRate,
        bitrateKbps: Int,
        maxRateFactor: Double = 1.5,
        rateWindowSeconds: Double = 1.0,
        keyframeIntervalSeconds: Double = 2,
        keyframeIntervalFrames: Int? = nil,
        preset: String = "veryfast",
        zeroLatency: Bool = true,
        profile: H264Profile = .high,
        level: String? = nil,
        bFrames: Int = 0,
        entropy: H264Entropy? = nil,
        threads: Int = 0,
        maxFrameDelay: Int? = nil,
        sceneCutKeyframes: Bool = false,
        scaling: ScalingMode = .fit,
        codec: VideoCodec = .h264,
        implementation: EncoderImplementation = .library,
        codecOptions: [EncoderOption] = []
    ) {
        self.codecOptions = codecOptions
        self.codec = codec
        self.implementation = implementation
        self.size = size
        self.scaling = scaling
        self.frameRate = frameRate
        self.bitrateKbps = bitrateKbps
        self.maxRateFactor = maxRateFactor
        self.rateWindowSeconds = rateWindowSeconds
        self.keyframeIntervalSeconds = keyframeIntervalSeconds
        self.keyframeIntervalFrames = keyframeIntervalFrames
        self.preset = preset
        self.zeroLatency = zeroLatency
        self.profile = profile
        self.level = level
        self.bFrames = bFrames
        self.entropy = entropy
        self.threads = threads
        self.maxFrameDelay = maxFrameDelay
        self.sceneCutKeyframes = sceneCutKeyframes
    }
}

extension EncoderSettings {
    /// The IDR interval in frames: the smaller of `keyframeIntervalFrames` and
    /// frame rate × `keyframeIntervalSeconds`, at least 1.
    public var keyframeIntervalInFrames: Int {
        let fromSeconds = max(1, Int((frameRate.framesPerSecond * keyframeIntervalSeconds).rounded()))
        guard let frames = keyframeIntervalFrames else { return fromSeconds }
        return max(1, min(frames, fromSeconds))
    }

    /// The rate limit in kbit/s: the most any `rateWindowSeconds` window may carry, per second.
    public func maxBitrateKbps(forAverage average: Int) -> Int {
        Int((Double(average) * maxRateFactor).rounded())
    }

    /// VBV buffer in kbit (`rc.i_vbv_buffer_size`), with the VBV drained at the average rate
    /// (`rc.i_vbv_max_bitrate` = `rc.i_bitrate`, see `X264Encoder.parameters(for:)`).
    ///
    /// A leaky bucket of size B drained at rate R lets any window of T seconds carry at most
    /// B + R × T bits. With R = average, B = (factor − 1) × average × window makes that bound exactly
    /// the rate limit. `burstLimitSeconds` bounds it further: a full buffer crosses a link at the
    /// average rate within it (1200 kbit/s at the default factor and window: 600 kbit, half a
    /// second, against an SRT latency of 500 ms). x264 needs room for at least one average frame,
    /// so that is the floor.
    public func vbvBufferKbits(forAverage average: Int) -> Int {
        var burst = (maxRateFactor - 1) * Double(average) * rateWindowSeconds
        if let limit = burstLimitSeconds { burst = min(burst, Double(average) * limit) }
        let oneFrame = Double(average) / max(1, frameRate.framesPerSecond)
        return Int(max(burst, oneFrame).rounded(.up))
    }

    /// The effective entropy coder when `entropy` is nil is decided by the preset, so this is
    /// only the explicit or profile-forced choice.
    var forcedEntropy: H264Entropy? {
        if let entropy { return entropy }
        return profile == .baseline ? .cavlc : nil
    }
}
