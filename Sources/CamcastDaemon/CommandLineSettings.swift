/// What the user typed after `camcast run`, before validation. Nil means "not given".
public struct CommandLineSettings: Sendable {
    public var configPath: String?
    public var source: String?
    public var size: String?
    public var fps: String?
    /// `--pixel-format FOURCC`: what to ask a device for, or what a file source holds.
    public var pixelFormat: String?
    public var bitrateKbps: Int?
    /// `--codec h264|h265`.
    public var codec: String?
    /// `--encoder auto|avcodec:NAME` (config `encoder.backend`).
    public var encoderBackend: String?
    /// `--min-bitrate KBPS`: adaptive bitrate's floor (config `encoder.min_bitrate_kbps`).
    public var minBitrateKbps: Int?
    /// `--no-adaptive-bitrate`: config `encoder.adaptive_bitrate: false`.
    public var noAdaptiveBitrate: Bool = false
    public var keyframeIntervalSeconds: Double?
    public var preset: String?
    public var profile: String?
    public var outputs: [String]
    public var durationSeconds: Double?
    public var logLevel: String?
    /// `--no-reconnect`: the first RTMP failure ends the run.
    public var noReconnect: Bool = false
    /// `--reconnect-attempts N`: failed attempts in a row before giving up (0 = forever).
    public var reconnectAttempts: Int?
    /// `--reconnect-healthy-after S`: a connection up this long resets the backoff of expensive failures (a refused or dropped publish).
    public var reconnectHealthyAfterSeconds: Double?
    /// `--connect-timeout S`: how long an RTMP connection attempt may wait for the server.
    public var connectTimeoutSeconds: Double?
    /// `--send-timeout S`: a connection that makes no progress this long is cut and retried.
    public var sendTimeoutSeconds: Int?
    /// `--tls-ca-file PATH`: extra CA certificates for rtmps:// outputs.
    public var tlsCAFile: String?
    /// `--pace realtime|fast`, for file sources.
    public var pace: String?
    /// `--audio silent|none|FILE.wav|alsa:DEVICE` (config `audio.source` and its device or file).
    public var audio: String?
    /// `--record DIR`: segmented MP4 recording into DIR with the defaults (config `outputs: - record: DIR`).
    public var recordDirectory: String?

    public init(
        configPath: String? = nil, source: String? = nil, size: String? = nil, fps: String? = nil,
        bitrateKbps: Int? = nil, keyframeIntervalSeconds: Double? = nil, preset: String? = nil,
        profile: String? = nil, outputs: [String] = [], durationSeconds: Double? = nil, logLevel: String? = nil,
        pace: String? = nil
    ) {
        self.configPath = configPath
        self.source = source
        self.size = size
        self.fps = fps
        self.bitrateKbps = bitrateKbps
        self.keyframeIntervalSeconds = keyframeIntervalSeconds
        self.preset = preset
        self.profile = profile
        self.outputs = outputs
        self.durationSeconds = durationSeconds
        self.logLevel = logLevel
        self.pace = pace
    }
}
