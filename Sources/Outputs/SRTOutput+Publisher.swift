import Logging
import Media
import SRT
import Telemetry

extension SRTOutput {
    /// The publisher thread's life: the one `PublisherLoop` of every network output, on a fresh
    /// libsrt socket (`SRTCaller`) for each attempt.
    func publish() {
        var retries = PublisherRetries(output: name, queue: queue, meter: meter, policy: policy, onFailure: onFailure)
        let loop = PublisherLoop(
            transport: "SRT", output: name, logger: logger, announcesFirstConnection: true, connectionDetails: ["options": "\(options)"],
            requestKeyframe: requestKeyframe)
        loop.run(
            retries: &retries, state: state, attempts: attempts, reconnects: reconnects,
            make: { SRTCaller(host: host, port: port, options: options) }, cancelling: { $0 },
            connect: { caller throws(SRTError) in try caller.connect() }, close: { $0.close() },
            stream: { caller in
                liveConnection.withLock { $0 = LiveConnection(caller: caller, number: attempts.load(ordering: .relaxed)) }
                let lost = stream(on: caller)
                liveConnection.withLock { $0 = nil }
                caller.close()
                if lost == nil { state.withLock { $0.drained() } }
                return lost
            })
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
