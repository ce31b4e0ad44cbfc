import Media

/// The one place where Camcast's counters and gauges live: the pipeline's (`pipeline`) and one
/// `OutputMeter` per output. The status line, STATUS=, the stop summary, /status and /metrics all
/// read `report()`; nothing reads the stages' own state ad hoc.
public final class TelemetryRegistry: Sendable {
    public let pipeline = PipelineMeter()
    public let version: String
    public let startUnixSeconds: Double
    private let started = ContinuousClock.now
    private let outputs = Lock<[OutputMeter]>([])
    private let facts = Lock<Facts>(Facts())
    /// Reads the running pipeline's graph back; set once the daemon runs (nil: no pipeline).
    private let graphSource = Lock<Callback<Void, PipelineGraph?>?>(nil)
    /// Called at the start of every `report()`: pulls what stages keep for themselves.
    private let collector = Lock<Callback<Void, Void>?>(nil)

    /// What the pipeline is set up as: changes only on start and reload.
    public struct Facts: Sendable, Equatable, Codable {
        public var source = ""
        public var width = 0
        public var height = 0
        public var framesPerSecond = 0.0
        public var codec = ""
        public var configFile: String?
        public var audio: String?
        public var running = false

        public init() {}
    }

    public init(version: String) {
        self.version = version
        startUnixSeconds = Double(WallClock.nowMilliseconds()) / 1000
    }

    /// The outputs in force now (a reload replaces the list); their order is the config's.
    public func setOutputs(_ meters: [OutputMeter]) {
        outputs.withLock { $0 = meters }
    }

    public var outputMeters: [OutputMeter] { outputs.withLock { $0 } }

    public func update(_ change: (inout Facts) -> Void) {
        facts.withLock { change(&$0) }
    }

    public var uptimeSeconds: Double { OutputMeter.seconds(since: started) }

    public func setGraphSource(_ read: @escaping @Sendable () -> PipelineGraph?) {
        graphSource.withLock { $0 = Callback(read) }
    }

    /// The graph as it runs now; nil while no pipeline runs. Read only where it is shown (/status,
    /// SIGUSR1, the stop summary), not at every `report()`: /metrics, /healthz and the status line
    /// have no use for it.
    public func graph() -> PipelineGraph? {
        graphSource.withLock { $0 }?() ?? nil
    }

    public func setCollector(_ collect: @escaping @Sendable () -> Void) {
        collector.withLock { $0 = Callback(collect) }
    }

    /// Everything at one moment.
    public func report() -> TelemetryReport {
        collector.withLock { $0 }?()
        let meter = pipeline
        let facts = facts.withLock { $0 }
        return TelemetryReport(
            version: version, startUnixSeconds: startUnixSeconds, uptimeSeconds: uptimeSeconds, facts: facts,
            framesCaptured: meter.framesCaptured.load(ordering: .relaxed),
            placeholderFrames: meter.placeholderFrames.load(ordering: .relaxed),
            framesEncoded: meter.framesEncoded.load(ordering: .relaxed), keyframes: meter.keyframes.load(ordering: .relaxed),
            encodedBytes: meter.encodedBytes.load(ordering: .relaxed),
            encodeSeconds: Double(meter.encodeNanoseconds.load(ordering: .relaxed)) / 1e9,
            configuredKbps: meter.configuredKbps.load(ordering: .relaxed), adaptedKbps: meter.adaptedKbps.load(ordering: .relaxed),
            skippedAtSource: meter.skippedAtSource.load(ordering: .relaxed),
            droppedByDriver: meter.droppedByDriver.load(ordering: .relaxed),
            droppedAtEncoder: meter.droppedAtEncoder.load(ordering: .relaxed),
            cameraTrouble: meter.cameraTrouble.withLock { $0 }, hasAudio: meter.hasAudio.load(ordering: .relaxed),
            audioFrames: meter.audioFrames.load(ordering: .relaxed), audioXruns: meter.audioXruns.load(ordering: .relaxed),
            audioTrouble: meter.audioTrouble.withLock { $0 }, outputs: outputMeters.map { $0.reading() },
            sourceResting: meter.sourceResting.withLock { $0 })
    }
}
