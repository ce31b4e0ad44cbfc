import Media
import Synchronization

/// Every counter and gauge of one output, written by the output's own threads and read by
/// whoever reports (status line, STATUS=, /status, /metrics). Lock-free counters; the phase, its
/// start and the last error change together under one small lock that is never held across I/O.
public final class OutputMeter: Sendable {
    /// Stable, low-cardinality name: the config's `name`, or kind and position (`rtmp-1`).
    public let name: String
    /// `rtmp`, `flv` or `annexb`.
    public let kind: String
    /// Where it goes, safe to show: an RTMP URL with its stream key masked and no query, or a path.
    public let target: String
    /// Which leg of a failover or dual-ingest output this is (`1` the primary, `2` …); nil for an
    /// output of its own. A leg's series carry it as the `leg` label beside the group's `output`.
    public let leg: String?

    /// Bytes handed to the socket or written to the file.
    public let sentBytes = Atomic<Int>(0)
    /// Connection attempts started (the first included).
    public let connectAttempts = Atomic<Int>(0)
    /// A failover output's leg that carries the stream (1 the primary); 0 for any other output.
    public let activeLeg = Atomic<Int>(0)
    /// Wall-clock time (Unix ms) of the last successful publish; 0 before the first.
    public let lastPublishUnixMilliseconds = Atomic<Int>(0)
    /// Reads the figures the output keeps itself (its queue's depth, drops, a recording's own), at
    /// report time, as a Prometheus collector does: the queue's own lock, never one held across I/O.
    private let statistics = Lock<Callback<Void, OutputStatistics>?>(nil)
    /// An SRT output's link as libsrt last reported it; nil for every other kind.
    private let srtLink: Lock<SRTLinkTotals>?
    private let life: Lock<Life>

    struct Life {
        var phase: OutputPhase
        var sinceUnixMilliseconds: Int
        var sinceMonotonic: ContinuousClock.Instant
        var lastError: String?
        var schedule: String?
        /// Failed connect attempts by reason (a short fixed word, see `ConnectFailure`).
        var failures: [String: Int] = [:]
        /// The server's reconnect requests, by what became of them.
        var reconnectRequests: [ReconnectRequestOutcome: Int] = [:]
        /// Attempts since the output was last up, for the status line.
        var attemptsSinceUp = 0
        /// When it last stopped being up (or was made): "down 14 s" counts from here.
        var downSince: ContinuousClock.Instant
    }

    public init(name: String, kind: String, target: String, leg: String? = nil) {
        self.name = name
        self.kind = kind
        self.target = target
        self.leg = leg
        srtLink = kind == "srt" ? Lock(SRTLinkTotals()) : nil
        life = Lock(Life(phase: .starting, sinceUnixMilliseconds: WallClock.nowMilliseconds(), sinceMonotonic: .now, downSince: .now))
    }

    /// The output entered `phase`; the time is kept only when the phase changes.
    public func enter(_ phase: OutputPhase, error: String? = nil) {
        life.withLock { life in
            // Failed is the end: a stop afterwards does not make it look clean.
            if life.phase == .failed { return }
            if life.phase != phase {
                if life.phase.isUp && !phase.isUp { life.downSince = .now }
                life.phase = phase
                life.sinceUnixMilliseconds = WallClock.nowMilliseconds()
                life.sinceMonotonic = .now
            }
            if let error { life.lastError = error }
            if phase.isUp { life.attemptsSinceUp = 0 }
        }
        if phase == .streaming { lastPublishUnixMilliseconds.store(WallClock.nowMilliseconds(), ordering: .relaxed) }
    }

    /// A leg of a group is made again after it ended (failed or stopped): its meter starts over
    /// from `starting`, keeping its counters, which count over the whole run.
    public func restart() {
        life.withLock { life in
            life.phase = .starting
            life.sinceUnixMilliseconds = WallClock.nowMilliseconds()
            life.sinceMonotonic = .now
            life.lastError = nil
            life.attemptsSinceUp = 0
        }
    }

    /// A connection attempt starts.
    public func attemptStarted() {
        connectAttempts.add(1, ordering: .relaxed)
        life.withLock { $0.attemptsSinceUp += 1 }
    }

    /// A connection attempt failed: counted by `reason` (a short fixed word, a label value), and
    /// `message` (already free of the stream key) becomes the last error.
    public func attemptFailed(reason: String, message: String) {
        life.withLock { life in
            life.failures[reason, default: 0] += 1
            life.lastError = message
        }
    }

    /// A server's reconnect request was answered: `outcome` says how.
    public func reconnectRequestAnswered(_ outcome: ReconnectRequestOutcome) {
        life.withLock { $0.reconnectRequests[outcome, default: 0] += 1 }
    }

    /// Replaces the last error with `text` (nil clears it): a group's word on its legs, which
    /// says which leg carries the stream and which are down, also while the group is up.
    public func describe(_ text: String?) {
        life.withLock { $0.lastError = text }
    }

    /// Where a scheduled output's window stands (`OutputReading.schedule`).
    public func describeSchedule(_ text: String?) {
        life.withLock { $0.schedule = text }
    }

    /// An SRT output's live connection number `connection` (its counts since it was made), as
    /// libsrt reports it now; nothing for another kind.
    public func recordSRTLink(_ reading: SRTLinkReading, connection: Int) {
        srtLink?.withLock { $0.record(reading, connection: connection) }
    }

    /// An SRT output has no live connection now: its link's gauges read zero, its counts stay.
    public func srtLinkEnded() {
        srtLink?.withLock { $0.connectionEnded() }
    }

    /// Where the output's own figures come from (the output itself, read weakly).
    public func setStatistics(_ read: @escaping @Sendable () -> OutputStatistics) {
        statistics.withLock { $0 = Callback(read) }
    }

    /// The figures as of now.
    public func reading() -> OutputReading {
        let life = life.withLock { $0 }
        let queue = statistics.withLock { $0 }?() ?? OutputStatistics()
        // A file output that did all it was asked to is complete, not merely writing.
        let phase = queue.isComplete && life.phase == .writing ? OutputPhase.complete : life.phase
        return OutputReading(
            name: name, kind: kind, target: target, phase: phase, up: phase.isUp,
            sinceUnixSeconds: Double(life.sinceUnixMilliseconds) / 1000,
            secondsInPhase: Self.seconds(since: life.sinceMonotonic),
            secondsDown: phase.isUp ? 0 : Self.seconds(since: life.downSince), lastError: life.lastError,
            attemptsSinceUp: life.attemptsSinceUp, connectAttempts: connectAttempts.load(ordering: .relaxed),
            failuresByReason: life.failures, reconnects: queue.reconnects,
            reconnectRequests: Dictionary(uniqueKeysWithValues: life.reconnectRequests.map { ($0.key.rawValue, $0.value) }),
            // A recording counts what reached its files itself (a segment's header and index too).
            sentBytes: queue.recording?.bytesWritten ?? sentBytes.load(ordering: .relaxed), sentFrames: queue.sentFrames,
            droppedCongestion: queue.droppedFrames, droppedDisconnected: queue.discardedFrames,
            queueSeconds: Double(queue.queuedMilliseconds) / 1000, queuedPackets: queue.queuedPackets,
            lastPublishUnixSeconds: Double(lastPublishUnixMilliseconds.load(ordering: .relaxed)) / 1000, recording: queue.recording,
            srtLink: srtLink?.withLock { $0.reading }, leg: leg, activeLeg: activeLeg.load(ordering: .relaxed) == 0 ? nil : activeLeg.load(ordering: .relaxed),
            schedule: life.schedule)
    }

    static func seconds(since instant: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - instant
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
