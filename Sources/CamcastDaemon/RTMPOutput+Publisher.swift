import FLV
import Logging
import Media
import RTMP

extension RTMPOutput {
    /// How one connection ended.
    enum ConnectionEnd {
        /// The queue was closed and drained (or the drain deadline passed): the run is over.
        case finished
        case failed(RTMPError)
    }

    /// The publisher thread's whole life: connect, stream, and on any failure wait and connect
    /// again, until the queue closes or the policy gives up. `opened` is called exactly once,
    /// after the first attempt.
    func publish(opened: @escaping (Result<Void, PipelineError>) -> Void) {
        var reportOpened: ((Result<Void, PipelineError>) -> Void)? = opened
        var backoff = Backoff(policy: policy)
        var failures = 0
        var connections = 0
        var gate = KeyframeGate(metadata: metadata)
        // Nothing is queued until there is a connection to send it on.
        queue.suspend()

        while !queue.isClosed {
            let publisher = RTMPPublisher(url: url, options: options, logger: logger)
            do {
                try publisher.connect()
            } catch {
                failures += 1
                if policy.givesUp(after: failures) {
                    let reason = policy.isEnabled ? "gave up after \(failures) attempts: \(error)" : error.description
                    let failure = PipelineError.outputFailed(output: name, reason: reason)
                    if let report = reportOpened { report(.failure(failure)) } else { fail(failure) }
                    return
                }
                let delay = backoff.nextDelay()
                logger.warning(
                    "RTMP connect failed, retrying",
                    metadata: [
                        "url": "\(url)", "attempt": "\(failures)", "retry_in": "\(Self.seconds(delay))",
                        "error": "\(error)",
                    ])
                reportOpened?(.success(()))
                reportOpened = nil
                if queue.waitForClose(seconds: delay) { return }
                continue
            }

            connections += 1
            if connections > 1 {
                reconnects.add(1, ordering: .relaxed)
                logger.notice("RTMP reconnected", metadata: ["url": "\(url)", "after_attempts": "\(failures)"])
            }
            failures = 0
            reportOpened?(.success(()))
            reportOpened = nil
            // A new connection must start with a keyframe: ask for one now instead of waiting a
            // GOP; frames encoded before it could not be decoded on this connection.
            gate.restart()
            queue.resume()
            requestKeyframe()
            currentWatch.withLock { $0 = publisher.watch }
            let connectedAt = MonotonicTime.now()
            let end = stream(on: publisher, gate: &gate)
            currentWatch.withLock { $0 = nil }

            guard case .failed(let error) = end, !queue.isClosed else { return }
            queue.suspend()
            let upSeconds = Double(MonotonicTime.now().nanoseconds(since: connectedAt)) / 1e9
            guard policy.isEnabled else {
                fail(.outputFailed(output: name, reason: error.description))
                return
            }
            if upSeconds >= policy.healthyAfterSeconds { backoff.reset() }
            let delay = backoff.nextDelay()
            logger.warning(
                "RTMP connection lost, reconnecting",
                metadata: [
                    "url": "\(url)", "connected_for": "\(Self.seconds(upSeconds))", "retry_in": "\(Self.seconds(delay))",
                    "error": "\(error)",
                ])
            if queue.waitForClose(seconds: delay) { return }
        }
    }

    /// Sends until the queue is closed and drained, or the connection fails.
    private func stream(on publisher: RTMPPublisher, gate: inout KeyframeGate) -> ConnectionEnd {
        while let packet = queue.pop() {
            let deadline = drainDeadline.load(ordering: .acquiring)
            if deadline != 0 && MonotonicTime.now().nanoseconds > deadline {
                logger.warning("stop: unsent frames discarded", metadata: ["url": "\(url)", "queued": "\(queue.count)"])
                queue.discardAll()
                break
            }
            do throws(RTMPError) {
                let tags = gate.admit(packet)
                for tag in tags {
                    try publisher.send(RTMPMediaMessage(tag))
                }
                // The frame's last byte is with the kernel now: capture → socket latency.
                if !tags.isEmpty { latency?.frameSent(packet) }
            } catch {
                return .failed(error)
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
        publisher.close()
        return .finished
    }

    /// Ends this output for good and tells the pipeline, which stops the run with `failure`.
    private func fail(_ failure: PipelineError) {
        queue.close()
        queue.discardAll()
        onFailure(failure)
    }

    /// `1.25s`: two decimals are enough to read backoff growth in the log.
    static func seconds(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)s"
    }
}
