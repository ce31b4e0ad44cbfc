import FLV
import Logging
import Media
import RTMP
import RTMPAddress

extension RTMPOutput {
    /// A connection published beside the live one after the server's reconnect request, waiting
    /// for the next video keyframe to take the stream over (make-before-break).
    struct Handover {
        let publisher: any StreamPublisher
        /// Its own muxer: the new connection starts with onMetaData and the sequence headers at
        /// that keyframe, while the old one's muxer goes on until then.
        var muxer: FLVPacketMuxer
        let url: RTMPURL
    }

    /// The connect a reconnect request started, on a thread of its own: the live connection goes
    /// on sending while the new server answers (a slow or silent one would otherwise hold the
    /// publisher thread until the connect timeout, and the queue would fill and drop). The
    /// publisher thread looks at it between batches.
    struct NewConnection {
        let target: RTMPURL
        let attempt: NewConnectionAttempt
        let thread: DedicatedThread
    }

    /// A new connection's publisher and how its connect ended. The connect thread alone uses the
    /// publisher until `ended` says it is done; then the publisher thread alone (or, for
    /// `cancelConnect`, a stop from any thread, which `ConnectCancelling` allows).
    final class NewConnectionAttempt: @unchecked Sendable {
        let publisher: any StreamPublisher
        private let outcome = Lock<Bool?>(nil)

        init(_ publisher: any StreamPublisher) { self.publisher = publisher }

        /// True once connected and publishing, false once failed; nil while connecting.
        var ended: Bool? { outcome.withLock { $0 } }
        func end(connected: Bool) { outcome.withLock { $0 = connected } }
    }

    /// Answers a reconnect request (Enhanced RTMP v2) the connection to `current` received:
    /// starts connecting and publishing to the address it names on a thread of its own. nil when
    /// the request is refused (a tcUrl Camcast cannot use, or one that drops TLS) or no thread
    /// could start: the stream goes on on the old connection.
    func startConnecting(answering request: RTMPReconnectRequest, on current: RTMPURL) -> NewConnection? {
        let target: RTMPURL
        do throws(RTMPURL.ReconnectRefusal) {
            target = try current.reconnectTarget(tcUrl: request.tcUrl)
        } catch {
            // The server's text, masked as a URL and for our own key, control characters escaped.
            let shown = request.tcUrl.map { url.redactor.redactForDisplay(RTMPURL.redact($0)) } ?? "none"
            meter.reconnectRequestAnswered(.refused)
            logger.error(
                "RTMP reconnect request refused; streaming on the current connection",
                metadata: ["url": "\(current)", "tcUrl": "\(shown)", "reason": "\(error)"])
            return nil
        }
        logger.notice(
            "RTMP server asks to reconnect; publishing to the new address beside the current one",
            metadata: ["url": "\(current)", "to": "\(target)", "description": "\(request.description ?? "")"])
        let attempt = NewConnectionAttempt(makePublisher(target))
        // A stop cancels this connect (`finish`); one that came before it is seen in `connect`.
        handoverAttempt.withLock { $0 = NetworkOutputState.Attempt(publisher: attempt.publisher) }
        do {
            let thread = try DedicatedThread { [self] in connect(attempt, to: target, from: current) }
            return NewConnection(target: target, attempt: attempt, thread: thread)
        } catch {
            handoverAttempt.withLock { $0 = nil }
            meter.reconnectRequestAnswered(.failed)
            logger.warning(
                "RTMP reconnect request: no thread for the new connection; streaming on the current connection",
                metadata: ["url": "\(current)", "error": "\(error)"])
            return nil
        }
    }

    /// The new connection's thread: connects and publishes, then says how it ended.
    private func connect(_ attempt: NewConnectionAttempt, to target: RTMPURL, from current: RTMPURL) {
        defer { handoverAttempt.withLock { $0 = nil } }
        do throws(RTMPError) {
            guard isStreaming else { throw RTMPError(kind: .cancelled, url: target.redacted) }
            try attempt.publisher.connect()
            attempt.end(connected: true)
        } catch {
            attempt.publisher.close()
            if error.kind != .cancelled {
                meter.reconnectRequestAnswered(.failed)
                logger.warning(
                    "RTMP reconnect request: the new address failed; streaming on the current connection",
                    metadata: ["url": "\(current)", "to": "\(target)", "error": "\(error)"])
            }
            attempt.end(connected: false)
        }
    }

    /// Where a new connection is, as the publisher thread sees it between batches.
    enum NewConnectionProgress {
        case connecting
        /// Its thread is joined; the handover to begin, or nil (it failed, or the output stops).
        case ended(Handover?)
    }

    /// On the publisher thread, between batches: once `connection`'s connect ended, its thread
    /// is joined and, if it is publishing and the output still streams, the handover begins from
    /// a copy of `muxer` started over, with a keyframe asked for.
    func progress(of connection: NewConnection, muxer: FLVPacketMuxer) -> NewConnectionProgress {
        guard let connected = connection.attempt.ended else { return .connecting }
        connection.thread.join()
        // A stop during the connect: drain on the connection that has the stream.
        guard connected, isStreaming else {
            if connected { connection.attempt.publisher.close() }
            return .ended(nil)
        }
        var next = muxer
        next.restart()
        requestKeyframe()
        return .ended(Handover(publisher: connection.attempt.publisher, muxer: next, url: connection.target))
    }

    /// The publish loop ended while a new connection was still being made: its connect is
    /// cancelled, its thread joined and its publisher closed.
    func abandon(_ connection: NewConnection) {
        // A stop cancelled it already (`finish`); the old connection's failure did not.
        if isStreaming { connection.attempt.publisher.cancelConnect() }
        connection.thread.join()
        if connection.attempt.ended == true { connection.attempt.publisher.close() }
    }

    /// The old connection's end after a handover, as on a stop: the end-of-sequence tag after its
    /// last frame, then FCUnpublish and deleteStream (the publisher's close).
    func leave(_ publisher: any StreamPublisher, muxer: FLVPacketMuxer, lastTime: Int64) {
        if muxer.isStreaming {
            do throws(RTMPError) {
                try publisher.send(RTMPMediaMessage(muxer.endOfSequence(at: lastTime)))
            } catch {
                logger.debug("could not send end of stream to the old connection", metadata: ["error": "\(error)"])
            }
        }
        publisher.close()
    }
}
