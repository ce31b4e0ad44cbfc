import Media

/// Everything `Config/camcast.yaml` can say, as plain Swift values.
///
/// A value of this type is always valid: `parse(yaml:fileName:)`, `load(path:)` and
/// `apply(overrides:outputs:origin:)` either produce a config that passed every rule or throw a
/// `ConfigError` listing every problem at once (design invariant 7). The daemon maps these values
/// onto its stage settings; this module knows nothing about the stages.
///
/// Parsing composes libyaml's events into a node tree of its own (`YAMLComposer`) rather than
/// using Codable or swift-configuration: every value keeps its line and column, unknown keys are visible (and reported with a suggestion), and all problems are
/// collected in one pass instead of stopping at the first decoding error.
public struct CamcastConfig: Sendable, Equatable {
    public var source: SourceConfig
    public var encoder: EncoderConfig
    /// Where the stream goes. Required: a file with no output is a problem, so `default` has none.
    public var outputs: [OutputConfig]
    public var reconnect: ReconnectConfig
    public var network: NetworkConfig
    public var queue: QueueConfig
    public var logging: LoggingConfig
    public var status: StatusConfig
    /// `audio:` (AudioConfig.swift). Set after `init`, with its default unless a file gives it.
    public var audio = AudioConfig()
    /// `overlay:` (OverlayConfig.swift): text and a clock on the picture; none by default.
    public var overlay = OverlayConfig()
    /// `outputs[].name`: the names the file gives outputs (the others are named by kind and position).
    public var outputNames: [OutputConfig: String] = [:]
    /// `outputs[].interface` / `source_address`: the uplink a network output is bound to, if any.
    public var outputUplinks: [OutputConfig: Uplink] = [:]
    /// `http:` (HTTPConfig.swift): the operator's endpoint.
    public var http = HTTPConfig()
    /// `schedule:` and its keys (ScheduleConfig.swift): when the stream and each output are wanted.
    public var schedule = ScheduleConfig()

    public init(
        source: SourceConfig = SourceConfig(),
        encoder: EncoderConfig = EncoderConfig(),
        outputs: [OutputConfig] = [],
        reconnect: ReconnectConfig = ReconnectConfig(),
        network: NetworkConfig = NetworkConfig(),
        queue: QueueConfig = QueueConfig(),
        logging: LoggingConfig = LoggingConfig(),
        status: StatusConfig = StatusConfig()
    ) {
        self.source = source
        self.encoder = encoder
        self.outputs = outputs
        self.reconnect = reconnect
        self.network = network
        self.queue = queue
        self.logging = logging
        self.status = status
    }

    /// What a file gives for every key it leaves out. `outputs` is empty here because it has no
    /// default: a file without outputs does not parse.
    public static let `default` = CamcastConfig()
}
