import Dispatch
import FLV
import Logging
import Media
import RTMP
import Synchronization

/// Publishes the stream to one RTMP server from a dedicated publisher thread.
///
/// The capture thread only pushes into the bounded `SendQueue`; the publisher thread owns the
/// librtmp connection outright (created, used and closed there), so no librtmp state is ever
/// touched from two threads.
final class RTMPOutput: StreamOutput {
    let name: String
    private let url: RTMPURL
    private let options: RTMPPublisherOptions
    private let metadata: FLVTag
    private let queue: SendQueue
    private let logger: Logger
    private let requestKeyframe: @Sendable () -> Void
    private let onFailure: @Sendable (PipelineError) -> Void
    private let latency: LatencyRecorder?
    private let thread = Mutex<DedicatedThread?>(nil)
    private let endTimestamp = Atomic<UInt32>(0)
    /// CLOCK_MONOTONIC nanoseconds after which a draining publisher gives up; 0 while running.
    private let drainDeadline = Atomic<UInt64>(0)

    init(
        url: RTMPURL, options: RTMPPublisherOptions, metadata: FLVTag, queueMilliseconds: Int64, logger: Logger,
        requestKeyframe: @escaping @Sendable () -> Void, onFailure: @escaping @Sendable (PipelineError) -> Void,
        latency: LatencyRecorder? = nil
    ) {
        self.url = url
        name = url.redacted
        self.options = options
        self.metadata = metadata
        queue = SendQueue(maxSpanMilliseconds: queueMilliseconds, requestKeyframe: requestKeyframe)
        self.logger = logger
        self.requestKeyframe = requestKeyframe
        self.onFailure = onFailure
        self.latency = latency
    }

    var droppedFrames: Int { queue.droppedFrames.load(ordering: .relaxed) }

    /// Connects and publishes on the publisher thread, and returns once that worked or failed.
    func open() throws(PipelineError) {
        let connected = Mutex<Result<Void, PipelineError>?>(nil)
        let signal = DispatchSemaphore(value: 0)
        do {
            let started = try DedicatedThread { [self] in
                publish { result in
                    connected.withLock { $0 = result }
                    signal.signal()
                }
            }
            thread.withLock { $0 = started }
        } catch {
            throw .outputFailed(output: name, reason: error.description)
        }
        signal.wait()
        if case .failure(let error) = connected.withLock({ $0 }) {
            thread.withLock { $0 }?.join()
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
        let started = thread.withLock { current -> DedicatedThread? in
            defer { current = nil }
            return current
        }
        started?.join()
    }

    /// The publisher thread's whole life: connect, send until the queue closes, end, close.
    private func publish(connected: (Result<Void, PipelineError>) -> Void) {
        let publisher = RTMPPublisher(url: url, options: options, logger: logger)
        defer { publisher.close() }
        do {
            try publisher.connect()
        } catch {
            connected(.failure(.outputFailed(output: name, reason: error.description)))
            return
        }
        connected(.success(()))
        // A new connection must start with a keyframe: ask for one now instead of waiting a GOP.
        requestKeyframe()

        var gate = KeyframeGate(metadata: metadata)
        while let packet = queue.pop() {
            let deadline = drainDeadline.load(ordering: .acquiring)
            if deadline != 0 && MonotonicTime.now().nanoseconds > deadline {
                logger.warning("stop: unsent frames discarded", metadata: ["url": "\(url)", "queued": "\(queue.count)"])
                queue.discardAll()
                break
            }
            do {
                let tags = gate.admit(packet)
                for tag in tags {
                    try publisher.send(RTMPMediaMessage(tag))
                }
                // The frame's last byte is with the kernel now: capture → socket latency.
                if !tags.isEmpty { latency?.frameSent(packet) }
            } catch {
                queue.close()
                queue.discardAll()
                onFailure(.outputFailed(output: name, reason: error.description))
                return
            }
        }
        if gate.isStreaming {
            let end = FLVMuxer().endOfSequenceTag(timestamp: endTimestamp.load(ordering: .relaxed))
            do {
                try publisher.send(RTMPMediaMessage(end))
            } catch {
                logger.warning("could not send end of stream", metadata: ["url": "\(url)", "error": "\(error)"])
            }
        }
    }
}

extension RTMPMediaMessage {
    /// RTMP message type ids 8, 9 and 18 are the FLV tag types, and the payload is the tag body.
    init(_ tag: FLVTag) {
        self.init(type: RTMPMessageType(rawValue: tag.type.rawValue)!, timestamp: tag.timestamp, payload: tag.body)
    }
}
