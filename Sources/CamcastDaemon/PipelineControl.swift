import Encoder
import Logging
import Media
import Telemetry

/// The daemon's handle on a running pipeline: its counters (for the watchdog and the status
/// line), and the way in for a reload. Made before the pipeline, shared with it.
public final class PipelineControl: Sendable {
    /// The latest picture as JPEG for /snapshot.jpg (at most one encode a second); nil before
    /// the first picture.
    public func snapshotJPEG() -> [UInt8]? { snapshots.jpeg() }

    /// The one registry every figure lives in (Telemetry); the status line, STATUS=, /status and
    /// /metrics read it.
    public let telemetry: TelemetryRegistry
    var counters: PipelineMeter { telemetry.pipeline }
    /// The picture tap behind /snapshot.jpg.
    let snapshots = SnapshotTap()
    let startedAt = MonotonicTime.now()
    /// Set while the pipeline runs (source started, outputs open); nil before and after.
    private let stages = Lock<(pipeline: Pipeline, stages: PipelineStages)?>(nil)
    /// One meter per output target, kept across reloads so that an output keeps its name and
    /// counts; `rtmp-1`, `flv-1`, … by kind and order of appearance unless the config names it.
    private let meters = Lock<[OutputTarget: OutputMeter]>([:])
    /// The meters of each group's legs (`leg` 1, 2, … under the group's name), kept as the group's is.
    private let legMeters = Lock<[OutputTarget: [OutputMeter]]>([:])

    #if DEBUG
    /// Debug builds: how the pipeline opens its encoder sessions when a test brings its own (a
    /// fake backend in Tests/, through the backend contract); nil: the codec's library.
    let debugSessionOpener = Lock<EncoderSessionOpener?>(nil)
    #endif

    public init(telemetry: TelemetryRegistry = TelemetryRegistry(version: CamcastVersion.string)) {
        self.telemetry = telemetry
    }

    /// The meter of `target`, made on first use.
    func meter(for target: OutputTarget, named configured: String? = nil) -> OutputMeter {
        meters.withLock { meters in
            if let meter = meters[target] { return meter }
            let kind = target.metricKind
            let position = meters.values.filter { $0.kind == kind }.count + 1
            let meter = OutputMeter(name: configured ?? "\(kind)-\(position)", kind: kind, target: target.safeDescription)
            meters[target] = meter
            return meter
        }
    }

    /// The meters of the legs of `target` (a group whose meter is `group`), made on first use.
    func legMeters(for target: OutputTarget, group: OutputMeter, legs: [OutputTarget]) -> [OutputMeter] {
        legMeters.withLock { meters in
            if let made = meters[target] { return made }
            let made = legs.enumerated().map { index, leg in
                OutputMeter(name: group.name, kind: leg.metricKind, target: leg.safeDescription, leg: "\(index + 1)")
            }
            meters[target] = made
            return made
        }
    }

    /// The outputs in force are `targets` (start, reload): the registry lists their meters, in
    /// order, each group's legs after it.
    func outputsInForce(_ targets: [OutputTarget]) {
        let listed = meters.withLock { meters in
            meters = meters.filter { targets.contains($0.key) }
            return targets.map { meters[$0] }
        }
        let legs = legMeters.withLock { legs in
            legs = legs.filter { targets.contains($0.key) }
            return legs
        }
        telemetry.setOutputs(zip(targets, listed).flatMap { target, meter in meter.map { [$0] + (legs[target] ?? []) } ?? [] })
    }

    /// Pictures the encoder has produced so far; advancing means the pipeline is alive.
    public var framesEncoded: Int { counters.framesEncoded.load(ordering: .relaxed) }

    /// Set while the pipeline is attached (READY=1 awaits it); cleared before the detach.
    let attached = AwaitableFlag()

    func attach(_ pipeline: Pipeline, _ running: PipelineStages) {
        stages.withLock { $0 = (pipeline, running) }
        attached.set()
    }

    func detach() {
        attached.clear()
        stages.withLock { $0 = nil }
    }

    /// Applies new settings to the running pipeline. Blocks (outputs may connect): call it from
    /// a thread of its own.
    func reload(to settings: RunSettings) -> ReloadOutcome {
        guard let (pipeline, running) = stages.withLock({ $0 }) else {
            return ReloadOutcome(failures: ["the pipeline is not running"])
        }
        return pipeline.apply(settings, to: running)
    }

    /// The figures of the status line, as of now; nil while the pipeline is not running.
    func snapshot() -> PipelineSnapshot? {
        guard let (_, running) = stages.withLock({ $0 }) else { return nil }
        let settings = running.settings.withLock { $0 }
        let source = running.source.withLock { $0 }
        var snapshot = PipelineSnapshot(
            at: .now(), size: settings.encoder.size, targetKbps: settings.encoder.bitrateKbps,
            framesCaptured: counters.framesCaptured.load(ordering: .relaxed),
            framesEncoded: counters.framesEncoded.load(ordering: .relaxed),
            encodedBytes: counters.encodedBytes.load(ordering: .relaxed),
            skippedAtSource: source?.skippedFrames ?? 0,
            outputs: running.currentOutputs.count)
        snapshot.droppedByDriver = source?.driverDroppedFrames ?? 0
        snapshot.droppedAtEncoder = counters.droppedAtEncoder.load(ordering: .relaxed)
        snapshot.badFrames = source?.badFrames ?? 0
        snapshot.placeholderReason = source?.placeholderReason
        snapshot.sourceResting = counters.sourceResting.withLock { $0 }
        if let audio = running.audio.withLock({ $0 }) {
            let status = audio.status
            snapshot.audio = PipelineSnapshot.Audio(
                frames: audio.encodedFrames.load(ordering: .relaxed), xruns: status.xruns,
                trouble: status.device == .live ? nil : status.device.description)
        }
        let sent = running.currentOutputs.map(\.statistics).filter { !$0.isComplete }.map(\.sentFrames)
        snapshot.framesSent = sent.min() ?? 0
        let adapted = counters.adaptedKbps.load(ordering: .relaxed)
        snapshot.adaptedKbps = settings.adaptiveBitrateFloorKbps != nil && adapted > 0 ? adapted : nil
        for reading in telemetry.outputMeters.map({ $0.reading() }) {
            snapshot.queueSeconds = max(snapshot.queueSeconds, reading.queueSeconds)
            // A leg is its group's affair; a group that streams says which leg carries it and which are down.
            guard reading.leg == nil else { continue }
            if let trouble = reading.trouble { snapshot.outputsDown.append(trouble) }
            if reading.isGroup, reading.up, let note = reading.lastError { snapshot.outputsDown.append("\(reading.name): \(note)") }
        }
        for output in running.currentOutputs {
            let statistics = output.statistics
            snapshot.queuedPackets += statistics.queuedPackets
            snapshot.droppedFrames += statistics.droppedFrames
            snapshot.reconnects += statistics.reconnects
        }
        return snapshot
    }

    /// Whether the source and the encoder rest between schedule windows now (`IdleRest`).
    var sourceRests: Bool { runningStages?.sourceResting.load(ordering: .relaxed) ?? false }

    /// The running stages, for the bitrate adapter; nil while the pipeline is not running.
    var runningStages: PipelineStages? { stages.withLock { $0?.stages } }

    /// How often the status line is wanted now (a reload may change it).
    var statusIntervalSeconds: Double? {
        stages.withLock { $0 }?.stages.settings.withLock { $0.statusIntervalSeconds }
    }
}

/// Opens an encoder session for the settings, delivering its pictures to the handler.
typealias EncoderSessionOpener = @Sendable (EncoderSettings, Logger, @escaping @Sendable (EncodedPicture) -> Void) throws -> EncoderSession
