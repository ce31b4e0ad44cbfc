import FLV
import Logging
import Media
import RTMP
import Telemetry

extension RTMPOutput {
    /// How one connection ended.
    enum ConnectionEnd {
        /// The queue was closed and drained (or the drain deadline passed): the run is over.
        case finished
        case failed(RTMPError)
    }

    /// The publisher thread's whole life: the one `PublisherLoop` of every network output, on a
    /// fresh publisher for each attempt. The muxer lives across connections (it keeps the latest
    /// audio configuration) and restarts on each: onMetaData, the sequence headers, a keyframe.
    func publish() {
        var retries = PublisherRetries(output: name, queue: queue, meter: meter, policy: policy, onFailure: onFailure)
        var muxer = FLVPacketMuxer(metadata: metadata, headroom: RTMPMediaMessage.requiredHeadroom)
        let loop = PublisherLoop(transport: "RTMP", output: name, logger: logger, announcesFirstConnection: false, requestKeyframe: requestKeyframe)
        loop.run(
            retries: &retries, state: state, attempts: attempts, reconnects: reconnects,
            make: { makePublisher(url) }, cancelling: { $0 },
            connect: { publisher throws(RTMPError) in try publisher.connect() }, close: { $0.close() },
            watch: { $0.connectionWatch },
            stream: { publisher in
                muxer.restart()
                if case .failed(let error) = stream(on: publisher, muxer: &muxer) { return error }
                return nil
            })
    }

    /// Frames whose latencies the publisher keeps before handing them to the recorder at once.
    static let latenciesPerHandOver = 32

    /// Sends until the queue is closed and drained, or the connection fails. A server's reconnect
    /// request moves the stream to a new connection at a keyframe (`startConnecting`, `Handover`);
    /// `muxer` is then the new connection's.
    private func stream(on first: any StreamPublisher, muxer: inout FLVPacketMuxer) -> ConnectionEnd {
        var publisher = first
        var current = url
        var handover: Handover?
        defer { handover?.publisher.close() }
        var connecting: NewConnection?
        defer { if let connecting { abandon(connecting) } }
        // The end-of-sequence tag goes no earlier than the last tag sent (audio may end later).
        var lastTime: Int64 = 0
        // A batch is a picture and the audio queued before it (one take of the queue's lock, not one
        // per packet). The frames' latencies go to the recorder a second's worth at a time, and the rest
        // when the connection ends (the summary is read after the outputs finished).
        var batch: [MediaPacket] = []
        var latencies: [Int64] = []
        defer { latency?.framesSent(latencies: latencies) }
        sending: while queue.popBatch(into: &batch) {
            if latencies.count >= Self.latenciesPerHandOver {
                latency?.framesSent(latencies: latencies)
                latencies.removeAll(keepingCapacity: true)
            }
            for (index, packet) in batch.enumerated() {
                let deadline = drainDeadline.load(ordering: .relaxed)
                if deadline != 0, MonotonicTime.now().nanoseconds > deadline {
                    logger.warning("stop: unsent frames discarded", metadata: ["url": "\(url)", "queued": "\(queue.count + batch.count - index)"])
                    queue.discardAll()
                    break sending
                }
                if let next = handover {
                    if packet.mediaKind == .video && packet.isKeyframe {
                        // Everything before this picture went to the old connection, this one and
                        // what follows go to the new one: no gap, nothing twice.
                        leave(publisher, muxer: muxer, lastTime: lastTime)
                        (publisher, muxer, current, handover) = (next.publisher, next.muxer, next.url, nil)
                        state.withLock { $0.handedOver(to: publisher.connectionWatch) }
                        meter.reconnectRequestAnswered(.switched)
                        logger.notice("RTMP reconnect request: switched to the new connection at a keyframe",
                                      metadata: ["url": "\(current)", "at_ms": "\(packet.dts)"])
                    } else if packet.mediaKind == .audio {
                        // Only so its muxer knows the latest audio configuration at the switch.
                        _ = try? handover?.muxer.tags(for: packet)
                    }
                }
                var tags: [FLVTag]
                do {
                    tags = try muxer.tags(for: packet)
                } catch {
                    // A frame FLV cannot carry (over 16 MiB): skip it and start again at a keyframe.
                    logger.error("frame not sendable as FLV; waiting for the next keyframe", metadata: ["error": "\(error)"])
                    muxer.restart()
                    continue
                }
                do throws(RTMPError) {
                    // Each tag's storage moves into its message (no other reference is left), so the
                    // publisher sends the picture from it in place, without copying it (issue 26).
                    for index in tags.indices {
                        let bytes = tags[index].bodyCount
                        try publisher.send(RTMPMediaMessage(taking: &tags[index]))
                        meter.sentBytes.add(bytes, ordering: .relaxed)
                    }
                } catch {
                    publisher.close()
                    guard let next = handover else { return .failed(error) }
                    // The old connection failed before the keyframe: the new one takes over from the
                    // next keyframe (its muxer waits for one).
                    logger.warning("RTMP connection lost while moving to the new address; the new connection takes over",
                                   metadata: ["url": "\(current)", "to": "\(next.url)", "error": "\(error)"])
                    (publisher, muxer, current, handover) = (next.publisher, next.muxer, next.url, nil)
                    state.withLock { $0.handedOver(to: publisher.connectionWatch) }
                    meter.reconnectRequestAnswered(.switched)
                    continue
                }
                if !tags.isEmpty { lastTime = max(lastTime, packet.dts) }
                // The frame's last byte is with the kernel now: capture → socket latency.
                if !tags.isEmpty && packet.mediaKind == .video {
                    sentFrames.add(1, ordering: .relaxed)
                    if latency != nil { latencies.append(LatencyRecorder.latency(of: packet)) }
                }
            }
            if handover == nil {
                if let pending = connecting {
                    if case .ended(let next) = progress(of: pending, muxer: muxer) { (connecting, handover) = (nil, next) }
                } else if let request = publisher.takeReconnectRequest() {
                    connecting = startConnecting(answering: request, on: current)
                }
            }
        }
        // The queue is drained: a new connection not yet made is given up before the stream's end.
        if let pending = connecting {
            abandon(pending)
            connecting = nil
        }
        if muxer.isStreaming {
            let end = muxer.endOfSequence(at: max(endTime.load(ordering: .relaxed), lastTime))
            do {
                try publisher.send(RTMPMediaMessage(end))
            } catch {
                logger.warning("could not send end of stream", metadata: ["url": "\(url)", "error": "\(error)"])
            }
        }
        publisher.close()
        state.withLock { $0.drained() }
        return .finished
    }
}
