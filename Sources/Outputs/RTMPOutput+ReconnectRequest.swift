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
        // @unchecked: the publisher is used by one thread at a time, which debug builds check
        // (`confinement`): the connect thread binds itself as it starts, the publisher thread
        // when it takes the publisher over (`takeOver`) once `ended` says the connect is done.
        private let publisher: any StreamPublisher
        private let outcome = Lock<Bool?>(nil)
        let confinement = ThreadConfinement("the new connection's owner")

        init(_ publisher: any StreamPublisher) { self.publisher = publisher }

        /// The connect thread, as it starts: the publisher is its own until `end`.
        func connectOnThisThread() -> any StreamPublisher {
            confinement.bindToCurrentThread()
            return publisher
        }

        /// The publisher thread, once `ended` is set and the connect thread joined: the publisher
        /// is its own from now on. Debug builds check the connect had ended.
        func takeOver() -> any StreamPublisher {
            #if DEBUG
            if ended == nil { confinement.check.fail("a new connection's publisher taken over while its connect runs") }
            #endif
            confinement.bindToCurrentThread()
            return publisher
        }

        /// What any thread may call on it (`ConnectCancelling`: a stop cancels the connect).
        var cancelling: any ConnectCancelling { publisher }

        /// True once connected and publishing, false once failed; nil while connecting.
        var ended: Bool? { outcome.withLock { $0 } }

        /// From the connect thread (asserted in debug builds): the publisher goes to the publisher
        /// thread.
        func end(connected: Bool) {
            confinement.assertOnOwner("ending a new connection's connect")
            outcome.withLock { $0 = connected }
        }
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
        handoverAttempt.withLock { $0 = NetworkOutputState.Attempt(publisher: attempt.cancelling) }
        do {
            let thread = try DedicatedThread(name: "rtmp reconnect") { [self] in connect(attempt, to: target, from: current) }
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
        let publisher = attempt.connectOnThisThread()
        do throws(RTMPError) {
            guard isStreaming else { throw RTMPError(kind: .cancelled, url: target.redacted) }
            try publisher.connect()
            attempt.end(connected: true)
        } catch {
            publisher.close()
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
        let publisher = connection.attempt.takeOver()
        // A stop during the connect: drain on the connection that has the stream.
        guard connected, isStreaming else {
            if connected { publisher.close() }
            return .ended(nil)
        }
        var next = muxer
        next.restart()
        requestKeyframe()
        return .ended(Handover(publisher: publisher, muxer: next, url: connection.target))
    }

    /// The publish loop ended while a new connection was still being made: its connect is
    /// cancelled, its thread joined and its publisher closed.
    func abandon(_ connection: NewConnection) {
        // A stop cancelled it already (`finish`); the old connection's failure did not.
        if isStreaming { connection.attempt.cancelling.cancelConnect() }
        connection.thread.join()
        if connection.attempt.ended == true { connection.attempt.takeOver().close() }
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
