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

    /// The publisher thread's whole life: connect, stream, and on any failure wait and connect
    /// again, until a stop or a failure the policy does not retry. Every step asks `state` first.
    func publish() {
        var retries = PublisherRetries(output: name, queue: queue, meter: meter, policy: policy, onFailure: onFailure)
        var connections = 0
        var muxer = FLVPacketMuxer(metadata: metadata, headroom: RTMPMediaMessage.requiredHeadroom)
        /// When Camcast last cut a dead connection; nil once a publish succeeded after it.
        var ownCutAt: MonotonicTime?
        var uplinkNotice = UplinkWaitNotice()

        while true {
            // A stop during the wait lands here: no connection is opened (issue 14 #2).
            guard state.withLock({ if case .connecting = $0 { return true } else { return false } }) else { return }
            attempts.add(1, ordering: .relaxed)
            meter.attemptStarted()
            meter.enter(.connecting)
            let publisher = makePublisher(url)
            guard state.withLock({ $0.attempting(with: publisher) }) else { return }
            do throws(RTMPError) {
                try publisher.connect()
            } catch {
                publisher.close()
                // Nothing is queued until there is a connection to send it on.
                let sinceCut = ownCutAt.map { Double(MonotonicTime.now().nanoseconds(since: $0)) / 1e9 }
                let failure = ReconnectSchedule.failure(for: error.failureKind, secondsSinceOwnCut: sinceCut)
                guard let delay = retries.attemptFailed(failure, reason: error.metricReason, message: error.description, state: state) else { return }
                let uplinkReason: String? = if case .uplinkUnavailable(let reason) = error.kind { reason } else { nil }
                if uplinkNotice.isNews(uplinkReason), let uplinkReason {
                    logger.warning("\(uplinkReason); waiting for it", metadata: ["url": "\(url)"])
                } else if uplinkReason == nil {
                    logger.warning(
                        "RTMP connect failed, retrying",
                        metadata: [
                            "url": "\(url)", "attempt": "\(retries.failures)", "retry_in": "\(LogSeconds.text(delay))",
                            "error": "\(error)",
                        ])
                }
                guard retries.waitBeforeRetry(seconds: delay, state: state) else { return }
                continue
            }

            let connectedAt = MonotonicTime.now()
            let watch = publisher.connectionWatch
            guard state.withLock({ $0.published(at: connectedAt.nanoseconds, watch: watch) }) else {
                // Stopped while connecting: unpublish at once, nothing was sent.
                publisher.close()
                return
            }
            connections += 1
            meter.enter(.streaming)
            if connections > 1 {
                reconnects.add(1, ordering: .relaxed)
                logger.notice("RTMP reconnected", metadata: ["url": "\(url)", "after_attempts": "\(retries.failures)"])
            }
            ownCutAt = nil
            // A new connection must start with a keyframe: ask for one now instead of waiting a
            // GOP; frames encoded before it could not be decoded on this connection.
            muxer.restart()
            retries.published(requestKeyframe: requestKeyframe)
            let end = stream(on: publisher, muxer: &muxer)

            guard case .failed(let error) = end else { return }
            let upSeconds = Double(MonotonicTime.now().nanoseconds(since: connectedAt)) / 1e9
            if error.isDeadPeerCut { ownCutAt = MonotonicTime.now() }
            guard let delay = retries.lost(afterSeconds: upSeconds, message: error.description, state: state) else { return }
            logger.warning(
                "RTMP connection lost, reconnecting",
                metadata: [
                    "url": "\(url)", "connected_for": "\(LogSeconds.text(upSeconds))", "retry_in": "\(LogSeconds.text(delay))",
                    "error": "\(error)",
                ])
            guard retries.waitBeforeRetry(seconds: delay, state: state) else { return }
        }
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
