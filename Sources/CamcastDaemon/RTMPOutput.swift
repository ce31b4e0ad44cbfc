import Dispatch
import FLV
import Logging
import Media
import RTMP
import RTMPAddress
import Synchronization

/// Publishes the stream to one RTMP server from a dedicated publisher thread, and keeps it
/// published: a failed or lost connection is retried with backoff (`ReconnectPolicy`), and a
/// watchdog thread cuts a connection that stopped making progress.
///
/// The capture thread only pushes into the bounded `SendQueue`; the publisher thread owns each
/// librtmp connection outright (created, used and closed there, a fresh `RTMPPublisher` per
/// attempt), so no librtmp state is ever touched from two threads or reused across attempts.
/// The watchdog only reads TCP progress and calls `RTMPConnectionWatch.abort`, which is safe
/// from any thread.
///
/// Every connection starts clean: onMetaData, the AVC sequence header, then a keyframe the
/// encoder is asked for at once (`KeyframeGate`, design invariant 1). Frames queued for a dead
/// connection are discarded, not replayed.
///
/// Timestamps across reconnects: they keep counting on the capture clock (CLOCK_MONOTONIC,
/// relative to the first frame of the run) instead of restarting at 0 on each connection. A
/// new connection therefore starts at, say, 95 000 ms, and the gap a player or recording sees
/// is the real outage. They never go backwards on a connection, since the dropped frames are
/// older than the keyframe it starts with; restarting at 0 would instead make a server that
/// still holds the old stream (or a player that stayed on it) see time jump back.
final class RTMPOutput: StreamOutput {
    let name: String
    let url: RTMPURL
    let options: RTMPPublisherOptions
    let policy: ReconnectPolicy
    let metadata: FLVTag
    let queue: SendQueue
    let logger: Logger
    let requestKeyframe: @Sendable () -> Void
    let onFailure: @Sendable (PipelineError) -> Void
    let latency: LatencyRecorder?
    private let threads = Mutex<[DedicatedThread]>([])
    let endTimestamp = Atomic<UInt32>(0)
    /// CLOCK_MONOTONIC nanoseconds after which a draining publisher gives up; 0 while running.
    let drainDeadline = Atomic<UInt64>(0)
    /// The live connection's watch, for the watchdog; nil between connections.
    let currentWatch = Mutex<RTMPConnectionWatch?>(nil)
    /// Set once the publisher thread has ended, to stop the watchdog.
    let publisherEnded = Atomic<Bool>(false)
    /// Signalled with `publisherEnded`, so the watchdog ends at once rather than at its next sample.
    let watchdogWake = DispatchSemaphore(value: 0)
    /// Connections made after the first one.
    let reconnects = Atomic<Int>(0)

    init(
        url: RTMPURL, options: RTMPPublisherOptions, reconnect: ReconnectPolicy, metadata: FLVTag,
        queueMilliseconds: Int64, bitrateKbps: Int, logger: Logger,
        requestKeyframe: @escaping @Sendable () -> Void, onFailure: @escaping @Sendable (PipelineError) -> Void,
        latency: LatencyRecorder? = nil
    ) {
        self.url = url
        name = url.redacted
        self.options = Self.transportOptions(options, bitrateKbps: bitrateKbps)
        policy = reconnect
        self.metadata = metadata
        // The queue overflows inside `push`, which runs in the encoder's output callback, with
        // the encoder session's lock held: asking the encoder for a keyframe right there would
        // take that lock again (a crash). Ask from another thread; the next frame or two carry it.
        queue = SendQueue(maxSpanMilliseconds: queueMilliseconds) {
            DispatchQueue.global().async(execute: requestKeyframe)
        }
        self.logger = logger
        self.requestKeyframe = requestKeyframe
        self.onFailure = onFailure
        self.latency = latency
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

    var statistics: OutputStatistics {
        OutputStatistics(
            queuedPackets: queue.count, droppedFrames: queue.droppedFrames.load(ordering: .relaxed),
            discardedFrames: queue.discardedFrames.load(ordering: .relaxed),
            reconnects: reconnects.load(ordering: .relaxed))
    }

    /// Starts the publisher and returns once its first attempt has connected — or failed: then
    /// this throws when reconnecting is off (or the policy allows no retry), and otherwise
    /// returns and the publisher keeps retrying in the background.
    func open() throws(PipelineError) {
        let connected = Mutex<Result<Void, PipelineError>?>(nil)
        let signal = DispatchSemaphore(value: 0)
        do {
            let publisher = try DedicatedThread { [self] in
                publish { result in
                    connected.withLock { $0 = result }
                    signal.signal()
                }
                publisherEnded.store(true, ordering: .releasing)
                watchdogWake.signal()
            }
            threads.withLock { $0.append(publisher) }
            let watchdog = try DedicatedThread { [self] in watch() }
            threads.withLock { $0.append(watchdog) }
        } catch {
            queue.close()
            throw .outputFailed(output: name, reason: error.description)
        }
        signal.wait()
        if case .failure(let error) = connected.withLock({ $0 }) {
            joinThreads()
            throw error
        }
    }

    func write(_ packet: StreamPacket) {
        queue.push(packet)
    }

    func finish(endTimestamp: UInt32, drainSeconds: Double) {
        self.endTimestamp.store(endTimestamp, ordering: .relaxed)
        drainDeadline.store(
            MonotonicTime.now().adding(nanoseconds: UInt64(drainSeconds * 1e9)).nanoseconds, ordering: .releasing)
        queue.close()
        joinThreads()
        let counters = statistics
        logger.info(
            "RTMP output ended",
            metadata: [
                "url": "\(url)", "dropped": "\(counters.droppedFrames)", "overflows": "\(queue.overflows.load(ordering: .relaxed))",
                "discarded": "\(counters.discardedFrames)", "reconnects": "\(counters.reconnects)",
                "peak_queue_ms": "\(queue.peakSpanMilliseconds.load(ordering: .relaxed))",
            ])
    }

    private func joinThreads() {
        let started = threads.withLock { current -> [DedicatedThread] in
            defer { current = [] }
            return current
        }
        for thread in started { thread.join() }
    }
}

extension RTMPMediaMessage {
    /// RTMP message type ids 8, 9 and 18 are the FLV tag types, and the payload is the tag body.
    init(_ tag: FLVTag) {
        self.init(type: RTMPMessageType(rawValue: tag.type.rawValue)!, timestamp: tag.timestamp, payload: tag.body)
    }
}
