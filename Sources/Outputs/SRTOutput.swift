import Logging
import Media
import SRT
import Synchronization
import Telemetry

/// Publishes the stream as MPEG-TS over SRT (caller mode) from a dedicated publisher thread, and
/// keeps it published with what every network output shares: the one `PublisherLoop`, one
/// `NetworkOutputState` behind one lock, the bounded `SendQueue` (drops to the next keyframe),
/// the `ReconnectSchedule` (a listener that comes back is published to within one cheap wait; a
/// refusal backs off as RTMP's does) and the same `OutputMeter` and `OutputStatistics`.
///
/// Each connection gets a fresh libsrt socket (`SRTCaller`) and a fresh muxer from
/// `makeMuxer` (Recording's libavformat MPEG-TS in the daemon), which starts at a keyframe with
/// PAT/PMT and the parameter sets; every message is 1316 bytes (7 TS packets) or the short tail
/// of a picture. A listener that vanishes is noticed by SRT's peer idle timeout, which is the
/// output's send timeout. A statistics thread beside the publisher reads libsrt's figures of the
/// live connection for the meter, adaptive bitrate and the stall reading (SRTOutput+Statistics).
package final class SRTOutput: StreamOutput {
    /// The kernel name of the publisher thread: it connects, muxes and sends what the queue holds.
    package static let threadName = "srt send"
    package var threadName: String { Self.threadName }
    package let name: String
    let host: String
    let port: UInt16
    let options: SRTCallerOptions
    let policy: ReconnectPolicy
    let queue: SendQueue
    let logger: Logger
    let requestKeyframe: @Sendable () -> Void
    let onFailure: @Sendable (OutputFailure) -> Void
    let makeMuxer: ConnectionMuxerFactory
    let state = Lock(NetworkOutputState.idle)
    private let threads = PublisherThreads()
    let drainDeadline = Atomic<UInt64>(0)
    let reconnects = Atomic<Int>(0)
    let attempts = Atomic<Int>(0)
    let sentFrames = Atomic<Int>(0)
    package let meter: OutputMeter
    /// The connection the publisher streams on, for the statistics thread; nil between connections.
    let liveConnection = Lock<LiveConnection?>(nil)
    /// The live link as the statistics thread last read it (`link`); nil without a connection.
    let linkSample = Lock<LinkSample?>(nil)
    /// Since when (CLOCK_MONOTONIC ns) the live connection has had data waiting and nothing
    /// acknowledged, as the statistics thread last saw; 0 while it progresses.
    let stallStartNanoseconds = Atomic<UInt64>(0)

    /// `displayName`: the URL as logs may show it (`srt://host:port`, the stream id masked).
    package init(
        host: String, port: UInt16, displayName: String, options: SRTCallerOptions, reconnect: ReconnectPolicy,
        queueMilliseconds: Int64, logger: Logger, requestKeyframe: @escaping @Sendable () -> Void,
        onFailure: @escaping @Sendable (OutputFailure) -> Void, makeMuxer: @escaping ConnectionMuxerFactory, meter: OutputMeter? = nil
    ) {
        self.host = host
        self.port = port
        name = displayName
        self.options = options
        policy = reconnect
        queue = SendQueue(maxSpanMilliseconds: queueMilliseconds, requestKeyframe: requestKeyframe)
        self.logger = logger
        self.requestKeyframe = requestKeyframe
        self.onFailure = onFailure
        self.makeMuxer = makeMuxer
        self.meter = meter ?? OutputMeter(name: "srt", kind: "srt", target: displayName)
        SRTLibraryLog.route(to: logger, masking: [options.passphrase, options.streamID].compactMap { $0 })
    }

    package var statistics: OutputStatistics {
        OutputStatistics(
            queuedPackets: queue.count, queuedMilliseconds: Int(queue.spanMilliseconds), queueBoundMilliseconds: Int(queue.boundMilliseconds),
            droppedFrames: queue.droppedFrames.load(ordering: .relaxed), discardedFrames: queue.discardedFrames.load(ordering: .relaxed),
            reconnects: reconnects.load(ordering: .relaxed), sentFrames: sentFrames.load(ordering: .relaxed))
    }

    /// What the live connection carries, from libsrt's statistics (see `SRTLinkReader`), for
    /// adaptive bitrate; nil while connecting, backing off or finished.
    package var link: LinkSample? { linkSample.withLock { $0 } }

    /// Starts the publisher thread and returns at once: the first attempt runs in the background.
    package func open() throws(OutputFailure) {
        guard state.withLock({ $0.start() }) else {
            throw OutputFailure(output: name, reason: "opened twice")
        }
        // As RTMP's: what is encoded during the first attempt is queued, and an overflow before a
        // listener answered asks the encoder for nothing.
        queue.askForKeyframes(false)
        do {
            try threads.start(
                name: Self.threadName, publish: { [self] in publish() }, companionName: "srt statistics",
                companions: [{ [self] ended in readStatistics(until: ended) }])
        } catch {
            _ = state.withLock { $0.stop(deadline: 0) }
            queue.close()
            throw OutputFailure(output: name, reason: "\(error)")
        }
    }

    package func write(_ packet: MediaPacket) {
        queue.push(packet)
    }

    package func write(contentsOf packets: [MediaPacket]) {
        queue.push(contentsOf: packets)
    }

    /// Stops in whatever state the output is: a stream drains for up to `drainSeconds`; a backoff
    /// wait ends at once and a connect in progress is cancelled (its socket closed).
    package func finish(endTime: Int64, drainSeconds: Double) {
        let deadline = MonotonicTime.now().adding(nanoseconds: UInt64(max(0, drainSeconds) * 1e9))
        drainDeadline.store(deadline.nanoseconds, ordering: .relaxed)
        let (draining, connecting) = state.withLock { $0.stopping(deadline: deadline.nanoseconds) }
        connecting?.cancelConnect()
        meter.enter(draining ? .draining : .stopped)
        queue.close()
        // A drain may overrun by one send blocked for the send timeout.
        let bound = draining ? max(0, drainSeconds) + Double(max(1, options.sendTimeoutSeconds)) : 0.5
        if !threads.end(waitingUpTo: bound) {
            logger.warning("SRT output still inside libsrt; leaving it to close by itself", metadata: ["url": "\(name)"])
        }
        meter.enter(.stopped)
        let counters = statistics
        logger.info(
            "SRT output ended",
            metadata: [
                "url": "\(name)", "sent": "\(counters.sentFrames)", "dropped": "\(counters.droppedFrames)",
                "discarded": "\(counters.discardedFrames)", "reconnects": "\(counters.reconnects)",
            ])
    }
}

extension SRTCaller: ConnectCancelling {
    package func cancelConnect() { cancel() }
}
