internal import CRTMP
#if canImport(Glibc)
import Glibc
#endif

extension RTMPPublisher {
    /// Connects and starts publishing. Any previous session is closed first.
    ///
    /// Follows design.md invariant 3 — librtmp state is never reused across attempts:
    /// Close → Init → SetupURL → EnableWrite → connect → publish.
    public func connect() throws(RTMPError) {
        try LibrtmpLog.withSink(logSink) { () throws(RTMPError) in
            try connectInsideLogScope()
        }
        logger.info("RTMP publishing", metadata: connectedTo.map {
            ["url": "\(url)", "family": "\($0.family)", "address": "\($0.address)", "tls": "\(tlsProtocol ?? "none")"]
        } ?? ["url": "\(url)"])
    }

    private func connectInsideLogScope() throws(RTMPError) {
        _ = logSink.takeEvents()
        RTMP_Close(rtmp)
        state = .idle
        publishingInbound = nil
        RTMP_Init(rtmp)
        free(urlBuffer)
        urlBuffer = strdup(url.unredactedForLibrtmp)
        guard let urlBuffer, RTMP_SetupURL(rtmp, urlBuffer) != 0 else { throw error(.setupFailed) }
        RTMP_EnableWrite(rtmp)
        let timeout = max(1, options.connectTimeoutSeconds)
        // One deadline for the whole attempt: TCP connect, RTMP handshake, connect and publish.
        let deadline = ContinuousClock.now + .seconds(timeout)
        crtmp_set_link_timeout(rtmp, Int32(clamping: timeout))

        let connection: TCPConnector.Connection
        do throws(TCPConnector.Failure) {
            // The lookup is watched too: a stop must not wait for a DNS server that never answers.
            let lookup = NameLookup()
            watch.attach(lookup: lookup)
            defer { watch.detachLookup() }
            connection = try TCPConnector.connect(host: url.host, port: url.port, deadline: deadline, lookup: lookup, uplink: options.uplink)
        } catch {
            switch error {
            case .dns(let message): throw self.error(.dnsFailure, detail: message)
            case .cancelled: throw self.error(.cancelled)
            case .refused: throw self.error(.connectionRefused)
            case .timedOut: throw self.error(.connectTimeout)
            case .failed(let code): throw self.error(.connectFailed(errno: code))
            case .uplinkUnavailable(let reason): throw self.error(.uplinkUnavailable(reason: reason))
            }
        }

        let fd = connection.socket
        // Watched from here on, so that a stop can cancel the handshake, connect and publish.
        watch.attach(socket: fd)
        guard !watch.isCancelled else {
            Glibc.close(fd)
            throw error(.cancelled)
        }
        connectedTo = connection
        logger.debug("RTMP TCP connected", metadata: ["family": "\(connection.family)", "address": "\(connection.address)"])
        // librtmp sets only a receive timeout; the send timeouts cover the handshake too.
        if !TCPConnector.setSendTimeouts(fd: fd, seconds: options.sendTimeoutSeconds) {
            logger.warning("RTMP send timeout not set", metadata: ["errno": "\(errno)"])
        }

        let cutoff = ConnectDeadline(socket: fd, at: deadline)
        defer { cutoff.disarm() }
        let tlsSession = try startTLS(socket: fd, deadline: deadline, cutoff: cutoff)
        // From here librtmp owns fd and the TLS session (it closes both on failure and in RTMP_Close;
        // for rtmps://, connectOverTLS closes them itself until it hands them over).
        do throws(RTMPError) {
            try handshakeAndPublish(socket: fd, tls: tlsSession, deadline: deadline)
        } catch {
            // Whatever the cut read made librtmp say, the reason is the cancel or the deadline.
            if watch.isCancelled {
                RTMP_Close(rtmp)
                throw self.error(.cancelled)
            }
            guard cutoff.fired else { throw error }
            RTMP_Close(rtmp)
            throw self.error(.connectTimeout)
        }
        cutoff.disarm()
        // It may have fired in the moment between publishing and disarming: the socket is dead.
        if cutoff.fired {
            RTMP_Close(rtmp)
            throw error(.connectTimeout)
        }

        if options.outgoingChunkSize > 128 {
            let size = UInt32(clamping: min(options.outgoingChunkSize, 0xFF_FFFF))
            guard crtmp_set_chunk_size(rtmp, size) != 0 else {
                let events = logSink.takeEvents()
                RTMP_Close(rtmp)
                throw error(Self.sendFailureKind(events))
            }
        }
        if options.unsentLowWatermarkBytes > 0
            && !TCPConnector.setUnsentLowWatermark(fd: RTMP_Socket(rtmp), bytes: options.unsentLowWatermarkBytes) {
            logger.warning("RTMP TCP_NOTSENT_LOWAT not set", metadata: ["errno": "\(errno)"])
        }
        _ = logSink.takeEvents()
        state = .publishing(lastTimestamp: nil)
    }

    /// For rtmps://, the TLS handshake on the connected socket (see `TLSSession`); nil for rtmp://.
    /// On failure the socket is closed here, as librtmp does not own it yet.
    private func startTLS(socket fd: Int32, deadline: ContinuousClock.Instant,
                          cutoff: ConnectDeadline) throws(RTMPError) -> OpaquePointer? {
        tlsProtocol = nil
        guard url.usesTLS else { return nil }
        var trust: TLSTrust
        do throws(TLSTrust.LoadFailure) {
            if let loaded = tlsTrust { trust = loaded } else { trust = try TLSTrust(caFile: options.tlsCAFile) }
        } catch {
            Glibc.close(fd)
            throw self.error(.tlsFailed(reason: error.reason))
        }
        tlsTrust = trust
        // RTMP_Close (at the start of connect) has freed the previous session, the last user.
        free(tlsHostBuffer)
        tlsHostBuffer = strdup(url.host)
        guard let tlsHostBuffer else {
            Glibc.close(fd)
            throw self.error(.tlsFailed(reason: "out of memory"))
        }
        do throws(TLSSession.Failure) {
            let session = try TLSSession.handshake(socket: fd, host: tlsHostBuffer, trust: trust, deadline: deadline)
            tlsProtocol = TLSSession.protocolName(session)
            return session
        } catch {
            Glibc.close(fd)
            if cutoff.fired { throw self.error(.connectTimeout) }
            switch error {
            case .certificate(let reason): throw self.error(.certificateRejected(reason: reason))
            case .handshake(let reason): throw self.error(.tlsFailed(reason: reason))
            case .timedOut: throw self.error(.connectTimeout)
            }
        }
    }

    /// The RTMP part of `connect`, on a connected socket, all before `deadline`.
    private func handshakeAndPublish(socket fd: Int32, tls: OpaquePointer?, deadline: ContinuousClock.Instant) throws(RTMPError) {
        var inbound = Inbound()
        if let tls {
            // No wait inside the session past the deadline (a record that arrives in part).
            TLSSession.limitWaits(tls, until: deadline)
            let leftover = try connectOverTLS(socket: fd, tls: tls, deadline: deadline)
            // From here Camcast reads only when poll says bytes arrived; the one read librtmp
            // makes through the session is gnutls_bye's wait for close_notify in RTMP_Close.
            TLSSession.limitWaits(tls, until: .now + .seconds(1))
            try accept(leftover[...], into: &inbound)
        } else {
            let command = connectCommandBody()
            let connected = Self.withOptionalBytes(command) { crtmp_connect_with_socket(rtmp, fd, $0.baseAddress, UInt32($0.count)) }
            guard connected != 0 else {
                let timedOut = crtmp_is_timed_out(rtmp) != 0
                let events = logSink.takeEvents()
                RTMP_Close(rtmp)
                throw error(timedOut ? .connectTimeout : Self.handshakeFailureKind(events))
            }
            // From here the server's bytes are read and checked by Camcast (RTMPPublisher+Receive).
            try takeBytesBufferedByHandshake(into: &inbound)
        }
        try awaitPublishStart(&inbound, before: deadline)
        try watchForLateRefusal(&inbound, milliseconds: options.publishSettleMilliseconds)
        // The reader goes on after Publish.Start (chunk size and partial messages carry over), to
        // find a reconnect request among what the server sends while we publish.
        publishingInbound = PublishingInbound(inbound)
    }

    /// librtmp's `RTMP_ConnectStream` loop, run here so that a refusal ends it at once:
    /// hand server messages to librtmp until onStatus NetStream.Publish.Start.
    private func awaitPublishStart(_ inbound: inout Inbound, before deadline: ContinuousClock.Instant) throws(RTMPError) {
        var seen: [LibrtmpLogEvent] = []
        while crtmp_is_publishing(rtmp) == 0 {
            seen += logSink.takeEvents()
            let connected = RTMP_IsConnected(rtmp) != 0
            let timedOut = ContinuousClock.now >= deadline
            if let kind = Self.publishFailureKind(seen, connected: connected, timedOut: timedOut) {
                RTMP_Close(rtmp)
                throw error(kind)
            }
            _ = try receiveStep(&inbound, until: deadline)
        }
    }

    /// See `RTMPPublisherOptions.publishSettleMilliseconds`: wait briefly for a close (or
    /// an error status) that follows Publish.Start.
    private func watchForLateRefusal(_ inbound: inout Inbound, milliseconds: Int) throws(RTMPError) {
        guard milliseconds > 0 else { return }
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        let refusedAfterStart = "server closed the connection right after NetStream.Publish.Start"
        while true {
            var seen = logSink.takeEvents()
            if RTMP_IsConnected(rtmp) == 0 {
                throw error(.publishRejected(reason: refusedAfterStart))
            }
            guard try receiveStep(&inbound, until: deadline) == .progressed else { return }
            seen += logSink.takeEvents()
            if seen.contains(where: \.isRefusalStatus), let kind = Self.publishFailureKind(seen, connected: true, timedOut: false) {
                RTMP_Close(rtmp)
                throw error(kind)
            }
        }
    }

    static func handshakeFailureKind(_ events: [LibrtmpLogEvent]) -> RTMPError.Kind {
        for event in events {
            if case .sendError(let code) = event { return sendFailureKind(code) }
        }
        if events.contains(.closedByPeer) { return .serverClosed }
        return .handshakeFailed
    }

    /// Decides whether the publish exchange has failed, from what librtmp logged so far.
    /// Returns nil while it may still succeed.
    static func publishFailureKind(_ events: [LibrtmpLogEvent], connected: Bool, timedOut: Bool) -> RTMPError.Kind? {
        // librtmp's own close path (RTMP_Close → FCUnpublish, deleteStream) logs send errors
        // that are consequences of the close, not its cause: ignore what follows it.
        let events = events.prefix {
            if case .invoked(let method) = $0 { return !method.hasPrefix("FCUnpublish") && !method.hasPrefix("deleteStream") }
            return true
        }
        let publishRequested = events.contains {
            if case .invoked(let method) = $0 { return method.hasPrefix("publish") }
            return false
        }
        func rejected(_ reason: String) -> RTMPError.Kind {
            publishRequested ? .publishRejected(reason: reason) : .connectRejected(reason: reason)
        }
        let statusDescription = events.lazy.compactMap { event -> String? in
            if case .statusDescription(let text) = event { return text }
            return nil
        }.first
        for event in events {
            switch event {
            case .onStatus(let code) where event.isRefusalStatus:
                return refusalKind(code: code, description: statusDescription, publishRequested: publishRequested)
            case .errorDescription(let description):
                return rejected(description)
            case .errorReply(let method) where !events.contains(where: { if case .errorDescription = $0 { return true }; return false }):
                return rejected("_error reply to \(method)")
            case .serverSentError:
                return rejected("server sent _error")
            case .serverRequestedClose:
                return rejected("server requested close")
            case .sendError(let code):
                return sendFailureKind(code)
            default:
                continue
            }
        }
        if !connected {
            return rejected(publishRequested
                ? "server closed the connection after the publish request"
                : "server closed the connection before publish")
        }
        if timedOut { return .connectTimeout }
        return nil
    }

    /// A refusal named for what it is when the server says so: a stream name still held by an
    /// earlier publish ("already publishing", which ingest servers keep until their own timeout
    /// for the old connection) or failed authentication; otherwise a plain rejection.
    static func refusalKind(code: String, description: String?, publishRequested: Bool) -> RTMPError.Kind {
        let reason = description.map { "\(code) (\($0))" } ?? code
        let text = (code + " " + (description ?? "")).lowercased()
        if text.contains("already publishing") || text.contains("already in use") || text.contains("already exists") {
            return .alreadyPublishing(reason: reason)
        }
        if text.contains("unauthorized") || text.contains("auth") || text.contains("denied") || text.contains("forbidden") {
            return .authenticationFailed(reason: reason)
        }
        return publishRequested ? .publishRejected(reason: reason) : .connectRejected(reason: reason)
    }
}
