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

    /// Answers a reconnect request (Enhanced RTMP v2) the connection to `current` received:
    /// connects and publishes to the address it names, while the queue fills (it is bounded), and
    /// asks the encoder for a keyframe, at which `stream` switches. nil when the request is
    /// refused (a tcUrl Camcast cannot use, or one that drops TLS) or the new connection fails:
    /// the stream goes on on the old connection.
    func answer(_ request: RTMPReconnectRequest, on current: RTMPURL, muxer: FLVPacketMuxer) -> Handover? {
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
        let publisher = makePublisher(target)
        // A stop cancels this connect (`finish`); one that came before it is seen below.
        handoverAttempt.withLock { $0 = RTMPOutputState.Attempt(publisher: publisher) }
        defer { handoverAttempt.withLock { $0 = nil } }
        do throws(RTMPError) {
            guard isStreaming else { throw RTMPError(kind: .cancelled, url: target.redacted) }
            try publisher.connect()
        } catch {
            publisher.close()
            if error.kind != .cancelled {
                meter.reconnectRequestAnswered(.failed)
                logger.warning(
                    "RTMP reconnect request: the new address failed; streaming on the current connection",
                    metadata: ["url": "\(current)", "to": "\(target)", "error": "\(error)"])
            }
            return nil
        }
        // A stop during the connect: drain on the connection that has the stream.
        guard isStreaming else {
            publisher.close()
            return nil
        }
        var next = muxer
        next.restart()
        requestKeyframe()
        return Handover(publisher: publisher, muxer: next, url: target)
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
