import Logging
import Media
import SRT
import Telemetry

extension SRTOutput {
    /// The publisher thread's life: connect, stream, and on any failure wait (the RTMP output's
    /// `ReconnectSchedule`) and connect again, until a stop or a failure the policy does not retry.
    func publish() {
        var retries = PublisherRetries(output: name, queue: queue, meter: meter, policy: policy, onFailure: onFailure)
        var connections = 0
        var uplinkNotice = UplinkWaitNotice()
        while true {
            guard state.withLock({ if case .connecting = $0 { return true } else { return false } }) else { return }
            attempts.add(1, ordering: .relaxed)
            meter.attemptStarted()
            meter.enter(.connecting)
            let caller = SRTCaller(host: host, port: port, options: options)
            guard state.withLock({ $0.attempting(with: caller) }) else { return }
            do throws(SRTError) {
                try caller.connect()
            } catch {
                caller.close()
                guard let delay = retries.attemptFailed(
                    error.isRefusal ? .refused : .unreachable, reason: error.metricReason, message: error.description, state: state)
                else { return }
                let uplinkReason = error.kind == .uplinkUnavailable ? error.detail : nil
                if uplinkNotice.isNews(uplinkReason), let uplinkReason {
                    logger.warning("\(uplinkReason); waiting for it", metadata: ["url": "\(name)"])
                } else if uplinkReason == nil {
                    logger.warning(
                        "SRT connect failed, retrying",
                        metadata: ["url": "\(name)", "attempt": "\(retries.failures)", "retry_in": "\(LogSeconds.text(delay))", "error": "\(error)"])
                }
                guard retries.waitBeforeRetry(seconds: delay, state: state) else { return }
                continue
            }

            let connectedAt = MonotonicTime.now()
            guard state.withLock({ $0.published(at: connectedAt.nanoseconds) }) else {
                caller.close()
                return
            }
            connections += 1
            meter.enter(.streaming)
            logger.notice(
                connections > 1 ? "SRT reconnected" : "SRT connected",
                metadata: ["url": "\(name)", "after_attempts": "\(retries.failures)", "options": "\(options)"])
            if connections > 1 { reconnects.add(1, ordering: .relaxed) }
            // A new connection starts with a keyframe: asked for now rather than a GOP later.
            retries.published(requestKeyframe: requestKeyframe)
            liveConnection.withLock { $0 = LiveConnection(caller: caller, number: attempts.load(ordering: .relaxed)) }
            let lost = stream(on: caller)
            liveConnection.withLock { $0 = nil }
            caller.close()
            guard let error = lost else {
                state.withLock { $0.drained() }
                return
            }
            let upSeconds = Double(MonotonicTime.now().nanoseconds(since: connectedAt)) / 1e9
            guard let delay = retries.lost(afterSeconds: upSeconds, message: error.description, state: state) else { return }
            logger.warning(
                "SRT connection lost, reconnecting",
                metadata: [
                    "url": "\(name)", "connected_for": "\(LogSeconds.text(upSeconds))", "retry_in": "\(LogSeconds.text(delay))",
                    "error": "\(error)",
                ])
            guard retries.waitBeforeRetry(seconds: delay, state: state) else { return }
        }
    }

    /// Holds what the sink saw go wrong, for the muxer's caller (the sink only says yes or no).
    private final class SendOutcome {
        var error: SRTError?
    }

    /// Sends until the queue is closed and drained (nil) or the connection fails (its error).
    private func stream(on caller: SRTCaller) -> SRTError? {
        let outcome = SendOutcome()
        let meter = self.meter
        let sink: (UnsafeRawBufferPointer) -> Bool = { bytes in
            do throws(SRTError) {
                try caller.send(bytes)
                meter.sentBytes.add(bytes.count, ordering: .relaxed)
                return true
            } catch {
                outcome.error = error
                return false
            }
        }
        var muxer: (any ConnectionMuxer)?
        var audioConfiguration: [UInt8]?
        var batch: [MediaPacket] = []
        sending: while queue.popBatch(into: &batch) {
            for (index, packet) in batch.enumerated() {
                let deadline = drainDeadline.load(ordering: .relaxed)
                if deadline != 0, MonotonicTime.now().nanoseconds > deadline {
                    logger.warning("stop: unsent frames discarded", metadata: ["url": "\(name)", "queued": "\(queue.count + batch.count - index)"])
                    queue.discardAll()
                    break sending
                }
                if packet.mediaKind == .audio, let config = packet.decoderConfiguration.parameterSets.first, !config.isEmpty {
                    audioConfiguration = config
                }
                do throws(ConnectionMuxerError) {
                    if let muxer {
                        try muxer.write(packet)
                    } else {
                        // The queue hands a new connection a keyframe first; anything before one waits.
                        guard packet.mediaKind == .video, packet.isKeyframe else { continue }
                        muxer = try makeMuxer(packet, audioConfiguration, sink)
                    }
                } catch .sinkFailed {
                    return outcome.error ?? SRTError(.lost, detail: "send failed")
                } catch {
                    // A picture the muxer refuses: start again at the next keyframe with a new muxer.
                    logger.error("frame not sendable as MPEG-TS; waiting for the next keyframe", metadata: ["error": "\(error)"])
                    muxer = nil
                    continue
                }
                if packet.mediaKind == .video { sentFrames.add(1, ordering: .relaxed) }
            }
        }
        // The end of the run: the muxer's last sound, then what the listener has not delivered yet.
        do {
            try muxer?.finish()
        } catch {
            logger.warning("could not end the MPEG-TS stream", metadata: ["url": "\(name)", "error": "\(outcome.error ?? SRTError(.lost, detail: "\(error)"))"])
        }
        let deadline = drainDeadline.load(ordering: .relaxed)
        if !caller.finishSending(until: deadline == 0 ? MonotonicTime.now().nanoseconds : deadline) {
            logger.warning("stop: the listener had not acknowledged everything", metadata: ["url": "\(name)"])
        }
        return nil
    }
}

extension SRTError {
    /// The `reason` label of `camcast_output_connect_failures_total`, from the same fixed set as RTMP's.
    var metricReason: String {
        switch kind {
        case .nameLookup: "dns"
        case .unreachable: "timeout"
        case .uplinkUnavailable: "uplink"
        case .rejected: "rejected"
        case .wrongPassphrase, .encryptionMismatch: "auth"
        case .lost: "lost"
        case .setup, .cancelled: "other"
        }
    }
}
