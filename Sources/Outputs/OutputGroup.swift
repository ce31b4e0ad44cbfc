import Logging
import Media
import Synchronization
import Telemetry

/// One output made of several legs, each a network output of its own (RTMP, RTMPS, SRT) with its
/// own queue, connection and reconnects (issue 43):
///
/// - `both` (dual ingest, YouTube's primary and backup): every leg carries every packet; an outage
///   on one never touches the other, and the group is up while any leg streams.
/// - `failover`: one leg carries the stream. When it has been down `failoverAfterSeconds`, the
///   next leg takes over, given first the newest keyframe's run (`NewestKeyframeRun`), so viewers
///   lose what failed and at most one GOP. An earlier leg whose server has answered (`isReachable`)
///   for `returnAfterSeconds` is brought back make-before-break: it publishes beside the active leg,
///   and once it has sent a picture the other is closed (viewers may see an overlap, never a gap).
///
/// The encoder's thread only writes: legs that join get the newest keyframe's run from that
/// thread, before any later packet, so every leg's packets stay in order. The group's own thread
/// (`watch`) makes, switches and ends legs; a second (`probe`) asks earlier legs' servers whether
/// they answer, so a slow probe never delays a failover.
package final class OutputGroup: NetworkOutput {
    /// The kernel name of the group's watching thread (each leg has its own transport's too).
    package static let threadName = "group watch"
    package var threadName: String { Self.threadName }
    package let name: String
    package let meter: OutputMeter
    let legs: [OutputLeg]
    let policy: OutputGroupPolicy
    let logger: Logger
    let onFailure: @Sendable (OutputFailure) -> Void
    /// Which legs carry the stream, and the newest keyframe's run; the one lock the encoder's
    /// thread takes (never across a leg's write, which takes the leg's own queue lock).
    let routing: Lock<OutputGroupRouting>
    /// When each leg's server was first seen answering without a break (failover: legs before
    /// the active one); written by the probe thread, read by the watch thread.
    let reachableSince: Lock<[MonotonicTime?]>
    let threads = PublisherThreads()
    /// Legs being ended after a switch, each on its thread (`retireLeg`); joined by `finish`.
    let retiring = Lock<[(thread: DedicatedThread, leg: RetiringLeg)]>([])
    let stop = AtomicLazyReference<WakeEvent>()
    /// How long the watch thread sleeps between looks at its legs.
    static let watchIntervalNanoseconds: UInt64 = 100_000_000
    /// How often the probe thread asks earlier legs' servers.
    static let probeIntervalNanoseconds: UInt64 = 1_000_000_000

    package init(
        name: String, legs: [OutputLeg], policy: OutputGroupPolicy, meter: OutputMeter, logger: Logger,
        onFailure: @escaping @Sendable (OutputFailure) -> Void
    ) {
        precondition(!legs.isEmpty, "a group needs a leg")
        self.name = name
        self.legs = legs
        self.policy = policy
        self.meter = meter
        self.logger = logger
        self.onFailure = onFailure
        // A run longer than this is a keyframe interval far past any ingest's advice (2 to 4 s).
        routing = Lock(OutputGroupRouting(legCount: legs.count, run: NewestKeyframeRun(maxSpanMilliseconds: 10_000)))
        reachableSince = Lock(Array(repeating: nil, count: legs.count))
    }

    /// Makes the first leg (failover) or every leg (both) and starts the group's threads.
    package func open() throws(OutputFailure) {
        let stopEvent: WakeEvent
        do {
            stopEvent = stop.storeIfNil(try WakeEvent())
        } catch {
            throw OutputFailure(output: name, reason: "\(error)")
        }
        if policy.mode == .failover { meter.activeLeg.store(1, ordering: .relaxed) }
        let first = policy.mode == .both ? Array(legs.indices) : [0]
        for index in first { startLeg(index) }
        do {
            var companions: [@Sendable (WakeEvent) -> Void] = []
            if policy.mode == .failover && legs.count > 1 {
                companions.append { [self] _ in probe(until: stopEvent) }
            }
            try threads.start(name: Self.threadName, publish: { [self] in watch(until: stopEvent) }, companionName: "group probe", companions: companions)
        } catch {
            finishLegs(endTime: 0, drainSeconds: 0)
            throw OutputFailure(output: name, reason: "\(error)")
        }
    }

    package func write(_ packet: MediaPacket) {
        write(contentsOf: CollectionOfOne(packet))
    }

    package func write(contentsOf packets: [MediaPacket]) {
        write(contentsOf: CollectionOfOne(packets).joined())
    }

    private func write(contentsOf packets: some Collection<MediaPacket>) {
        let (carrying, joining, run) = routing.withLock { $0.route(packets) }
        let batch = Array(packets)
        for leg in carrying { leg.write(contentsOf: batch) }
        // A leg that joins starts at the newest keyframe, which the batch may hold itself.
        for leg in joining { leg.write(contentsOf: run) }
    }

    /// Ends the group's threads, then every leg at once (each drains up to `drainSeconds`).
    package func finish(endTime: Int64, drainSeconds: Double) {
        stop.load()?.signal()
        _ = threads.end(waitingUpTo: 1)
        finishLegs(endTime: endTime, drainSeconds: drainSeconds)
        meter.enter(.stopped)
        logger.info("\(policy.mode.word) output ended", metadata: ["output": "\(name)"])
    }

    package var statistics: OutputStatistics {
        let outputs = routing.withLock { $0.carrying }
        switch policy.mode {
        case .failover:
            return routing.withLock { $0.legs[$0.active] }?.statistics ?? OutputStatistics()
        case .both:
            // What the worst leg shows: a queue or a drop on either is the operator's concern.
            let all = outputs.map(\.statistics)
            return OutputStatistics(
                queuedPackets: all.map(\.queuedPackets).max() ?? 0, queuedMilliseconds: all.map(\.queuedMilliseconds).max() ?? 0,
                queueBoundMilliseconds: all.map(\.queueBoundMilliseconds).max() ?? 0, droppedFrames: all.map(\.droppedFrames).reduce(0, +),
                discardedFrames: all.map(\.discardedFrames).reduce(0, +), reconnects: all.map(\.reconnects).reduce(0, +),
                sentFrames: all.map(\.sentFrames).max() ?? 0)
        }
    }

    /// The legs whose connections viewers depend on now: the active one (failover) or every leg (both).
    private var servingLegs: [any NetworkOutput] {
        routing.withLock { routing in
            policy.mode == .failover ? [routing.legs[routing.active]].compactMap { $0 } : routing.carrying
        }
    }

    /// The link adaptive bitrate follows: the active leg's, or with both legs the more congested.
    package var link: LinkSample? {
        return servingLegs.compactMap(\.link).max { $0.queuedMilliseconds < $1.queuedMilliseconds }
    }

    /// Viewers miss the stream: the active leg (failover) or every leg (both) is interrupted.
    package var isInterrupted: Bool {
        let outputs = servingLegs
        return !outputs.isEmpty && outputs.allSatisfy(\.isInterrupted)
    }

    package var isStreaming: Bool {
        routing.withLock { $0.carrying }.contains { $0.isStreaming }
    }

    /// Stalled while every leg that carries the stream is (both), or the active one is (failover).
    package var stalledSince: MonotonicTime? {
        let stalls = servingLegs.map(\.stalledSince)
        guard !stalls.isEmpty, !stalls.contains(where: { $0 == nil }) else { return nil }
        return stalls.compactMap { $0 }.max()
    }

    package var sentFrameCount: Int {
        routing.withLock { $0.carrying }.map(\.sentFrameCount).max() ?? 0
    }
}

/// How a group uses its legs (config: `mode`, `failover_after_seconds`, `return_after_seconds`).
public struct OutputGroupPolicy: Sendable, Hashable {
    public enum Mode: String, Sendable, Hashable {
        case both, failover

        /// How logs name the group.
        var word: String { self == .both ? "dual-ingest" : "failover" }
    }

    public var mode: Mode
    public var failoverAfterSeconds: Double
    public var returnAfterSeconds: Double

    public init(mode: Mode, failoverAfterSeconds: Double = 5, returnAfterSeconds: Double = 30) {
        self.mode = mode
        self.failoverAfterSeconds = failoverAfterSeconds
        self.returnAfterSeconds = returnAfterSeconds
    }
}

/// One leg of a group: how to make a fresh output for it (each time it is started, with the
/// leg's meter, which lasts the run) and how to ask whether its server answers.
package struct OutputLeg: Sendable {
    /// The leg's address as logs may show it (stream key masked).
    package let name: String
    package let meter: OutputMeter
    package let make: @Sendable (_ onFailure: @escaping @Sendable (OutputFailure) -> Void) -> any NetworkOutput
    /// Whether the leg's server accepts a connection now (TCP for RTMP, a handshake for SRT); called
    /// on the probe thread only, and bounded by its own timeout.
    package let isReachable: @Sendable () -> Bool

    package init(
        name: String, meter: OutputMeter, make: @escaping @Sendable (_ onFailure: @escaping @Sendable (OutputFailure) -> Void) -> any NetworkOutput,
        isReachable: @escaping @Sendable () -> Bool
    ) {
        self.name = name
        self.meter = meter
        self.make = make
        self.isReachable = isReachable
    }
}
