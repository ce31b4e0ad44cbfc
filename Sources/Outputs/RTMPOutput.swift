import FLV
import Logging
import Media
import RTMP
import RTMPAddress
import Synchronization
import Telemetry

/// Publishes the stream to one RTMP server from a dedicated publisher thread, and keeps it
/// published: a failed or lost connection is retried (`ReconnectSchedule`), and a watchdog
/// thread cuts a connection that stopped making progress.
///
/// Its life is one `NetworkOutputState` behind one lock; the publisher thread asks that state
/// before every step, so a stop in any state is one transition. Neither `open` nor `finish`
/// waits for a connection: the first attempt runs in the background (other outputs record
/// meanwhile), and a stop during a connect or a wait returns at once (issue 14 #11).
///
/// The capture thread only pushes into the bounded `SendQueue`; the publisher thread owns each
/// connection outright (a fresh publisher per attempt, from `makePublisher`), so no librtmp
/// state is touched from two threads or reused across attempts. The watchdog only reads TCP
/// progress and calls `RTMPConnectionWatch.abort`, which is safe from any thread.
///
/// Every connection starts clean: onMetaData, the AVC sequence header, then a keyframe the
/// encoder is asked for at once (`FLVPacketMuxer` over a `KeyframeGate`, design invariant 1). Frames queued for a dead
/// connection are discarded, not replayed. Timestamps keep counting on the capture clock across
/// reconnects, so the gap a player sees is the real outage and never goes backwards.
package final class RTMPOutput: StreamOutput {
    /// The kernel name of the publisher thread: it connects, muxes and sends what the queue holds.
    package static let threadName = "rtmp send"
    package var threadName: String { Self.threadName }
    package let name: String
    let url: RTMPURL
    let options: RTMPPublisherOptions
    let policy: ReconnectPolicy
    let metadata: FLVTag
    let queue: SendQueue
    let logger: Logger
    let requestKeyframe: @Sendable () -> Void
    let onFailure: @Sendable (OutputFailure) -> Void
    let latency: LatencyRecorder?
    let makePublisher: StreamPublisherFactory
    /// Everything about where the output is in its life.
    let state = Lock(NetworkOutputState.idle)
    /// The connect a server's reconnect request started beside the live connection, for a stop to
    /// cancel (`answer`); nil otherwise.
    let handoverAttempt = Lock<NetworkOutputState.Attempt?>(nil)
    /// The publisher and the watchdog; the publisher's end ends the watchdog's sleep at once
    /// rather than at its next sample, a sleep that takes no lock (`WakeEvent`).
    private let threads = PublisherThreads()
    /// Stream time (ms) of the end-of-sequence tag, set by `finish`.
    let endTime = Atomic<Int64>(0)
    /// When a stop's drain must end (monotonic ns; 0 until `finish`): the publisher checks it per
    /// packet without taking the state's lock (the state says `.draining` with the same deadline).
    let drainDeadline = Atomic<UInt64>(0)
    /// Connections made after the first one.
    let reconnects = Atomic<Int>(0)
    /// Connection attempts started (the first included); for tests and the log.
    let attempts = Atomic<Int>(0)
    /// Video frames handed to the socket.
    let sentFrames = Atomic<Int>(0)
    /// Since when (CLOCK_MONOTONIC ns) the live connection has had data waiting and nothing
    /// acknowledged, as the watchdog last saw; 0 while it progresses (`StallDetector.waitingSince`).
    let stallStartNanoseconds = Atomic<UInt64>(0)
    /// Where the operator's view reads this output (phase, attempts, failures by reason, bytes).
    package let meter: OutputMeter

    package init(
        url: RTMPURL, options: RTMPPublisherOptions, reconnect: ReconnectPolicy, metadata: FLVTag,
        queueMilliseconds: Int64, bitrateKbps: Int, logger: Logger,
        requestKeyframe: @escaping @Sendable () -> Void, onFailure: @escaping @Sendable (OutputFailure) -> Void,
        latency: LatencyRecorder? = nil, makePublisher: StreamPublisherFactory? = nil, meter: OutputMeter? = nil
    ) {
        self.url = url
        name = url.redacted
        self.meter = meter ?? OutputMeter(name: "rtmp", kind: "rtmp", target: url.redacted)
        let options = Self.transportOptions(options, bitrateKbps: bitrateKbps)
        self.options = options
        policy = reconnect
        self.metadata = metadata
        // The encoder delivers pictures after releasing its lock, so an overflow may ask it for
        // a keyframe right there.
        queue = SendQueue(maxSpanMilliseconds: queueMilliseconds, requestKeyframe: requestKeyframe)
        self.logger = logger
        self.requestKeyframe = requestKeyframe
        self.onFailure = onFailure
        self.latency = latency
        self.makePublisher = makePublisher ?? { RTMPPublisher(url: $0, options: options, logger: logger) }
    }

    /// What the publisher needs beyond the user's settings: librtmp's own lines at debug (this
    /// output logs each failure once, with its reason), and an unsent-bytes limit of about a
    /// quarter second of media, so a slow link's backlog stays in the send queue, where it can
    /// be dropped up to a keyframe, instead of piling up in the kernel.
    static func transportOptions(_ base: RTMPPublisherOptions, bitrateKbps: Int) -> RTMPPublisherOptions {
        var options = base
        if options.librtmpLogLevelCap == nil { options.librtmpLogLevelCap = .debug }
        if options.unsentLowWatermarkBytes == 0 {
            options.unsentLowWatermarkBytes = max(16 * 1024, bitrateKbps * 1000 / 8 / 4)
        }
        return options
    }

    package var statistics: OutputStatistics {
        OutputStatistics(
            queuedPackets: queue.count, queuedMilliseconds: Int(queue.spanMilliseconds), queueBoundMilliseconds: Int(queue.boundMilliseconds),
            droppedFrames: queue.droppedFrames.load(ordering: .relaxed), discardedFrames: queue.discardedFrames.load(ordering: .relaxed),
            reconnects: reconnects.load(ordering: .relaxed), sentFrames: sentFrames.load(ordering: .relaxed))
    }

    /// The live connection as the kernel sees it, for adaptive bitrate; nil while connecting,
    /// backing off or finished. Safe from any thread: tcp_info is read on the watch's own
    /// duplicate of the socket.
    package var link: LinkSample? {
        guard let watch = state.withLock({ state -> RTMPConnectionWatch? in
            if case .streaming = state { return state.watch }
            return nil
        }), let progress = watch.progress() else { return nil }
        return LinkSample(
            connection: attempts.load(ordering: .relaxed), bytesAcked: progress.bytesAcked,
            queuedMilliseconds: queue.spanMilliseconds, unsentBytes: Int(progress.notSentBytes),
            unackedSegments: Int(progress.unackedSegments), inFlightBytes: progress.inFlightBytes)
    }

    /// Starts the publisher and watchdog threads and returns at once: the first attempt runs in
    /// the background. Throws only if a thread cannot start.
    package func open() throws(OutputFailure) {
        guard state.withLock({ $0.start() }) else {
            throw OutputFailure(output: name, reason: "opened twice")
        }
        // The first attempt runs while the stream starts: what the encoder makes meanwhile is
        // queued (bounded by the queue's span), so a server that answers at once gets the stream
        // from its first frame. A failed attempt discards it (see `publish`). Until then an
        // overflow asks the encoder for nothing: a server that stays silent must not put extra
        // keyframes into the other outputs' streams.
        queue.askForKeyframes(false)
        do {
            try threads.start(
                name: Self.threadName, publish: { [self] in publish() }, companionName: "rtmp watch", companions: [{ [self] ended in watch(until: ended) }])
        } catch {
            // No thread ran, so no publisher was made that the stop would hand back to close.
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

    /// Stops in whatever state the output is: a stream drains for up to `drainSeconds` and ends
    /// with the end-of-sequence tag; a backoff wait ends at once, and a connect in progress is
    /// cancelled (its socket shut down, so the server never sees the publish).
    package func finish(endTime: Int64, drainSeconds: Double) {
        self.endTime.store(endTime, ordering: .relaxed)
        let deadline = MonotonicTime.now().adding(nanoseconds: UInt64(max(0, drainSeconds) * 1e9))
        drainDeadline.store(deadline.nanoseconds, ordering: .relaxed)
        let (draining, connecting) = state.withLock { $0.stopping(deadline: deadline.nanoseconds) }
        connecting?.cancelConnect()
        handoverAttempt.withLock { $0 }?.publisher.cancelConnect()
        meter.enter(draining ? .draining : .stopped)
        queue.close()
        // A drain may overrun its deadline by one blocked send, which the watchdog cuts after
        // the send timeout; anything else ends within a moment.
        let bound = draining ? max(0, drainSeconds) + Double(max(1, options.sendTimeoutSeconds)) : 0.5
        if !threads.end(waitingUpTo: bound) {
            logger.warning("RTMP output still inside librtmp; leaving it to close by itself", metadata: ["url": "\(url)"])
        }
        meter.enter(.stopped)
        let counters = statistics
        logger.info(
            "RTMP output ended",
            metadata: [
                "url": "\(url)", "dropped": "\(counters.droppedFrames)", "overflows": "\(queue.overflows.load(ordering: .relaxed))",
                "discarded": "\(counters.discardedFrames)", "reconnects": "\(counters.reconnects)",
                "peak_queue_ms": "\(queue.peakSpanMilliseconds.load(ordering: .relaxed))",
            ])
    }
}

extension RTMPMediaMessage {
    /// RTMP message type ids 8, 9 and 18 are the FLV tag types, and the payload is the tag body.
    init(_ tag: FLVTag) {
        var tag = tag
        self.init(taking: &tag)
    }

    /// Moves the tag's storage, headroom and all, into the message; the tag is left empty.
    init(taking tag: inout FLVTag) {
        let type = RTMPMessageType(rawValue: tag.type.rawValue)!
        let (bytes, headroom) = tag.takeStorage()
        self.init(type: type, timestamp: tag.timestamp, storage: bytes, headroom: headroom)
    }
}
