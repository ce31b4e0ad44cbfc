internal import CRTMP
import Logging
import RTMPAddress
#if canImport(Glibc)
import Glibc
#endif

/// Publishes one stream to an RTMP server through librtmp.
///
/// Threading: an instance is used by one thread at a time — the publisher thread, which
/// blocks in `connect()` and `send(_:)` (bounded by the timeouts in `options`). It is not
/// `Sendable`; hand it to that thread and keep it there. librtmp's global log callback is
/// routed to this instance's logger while that thread is inside librtmp (see `LibrtmpLog`).
///
/// Ownership: this object owns the `RTMP` struct (allocated in `init`, freed in `deinit`)
/// and the C copy of the URL that librtmp keeps pointers into (host, app, tcUrl), which
/// lives as long as the `RTMP` struct has been set up from it; for rtmps://, likewise the C copy
/// of the host name the TLS session keeps a pointer to.
public final class RTMPPublisher {
    public let url: RTMPURL
    public let options: RTMPPublisherOptions
    let logger: Logger
    let logSink: LibrtmpLogSink
    /// For another thread (a watchdog): the live connection's progress, and a way to cut it.
    public let watch = RTMPConnectionWatch()

    let rtmp: UnsafeMutablePointer<RTMP>
    /// `strdup` of `url.unredactedForLibrtmp`, handed to `RTMP_SetupURL`; replaced only
    /// after `RTMP_Init` has dropped every pointer into the previous one.
    var urlBuffer: UnsafeMutablePointer<CChar>?

    enum State {
        /// Not connected: never connected, after `close()`, or after a failure.
        case idle
        /// Publish started; `lastTimestamp` is the timestamp of the last message on the
        /// media chunk stream (nil until the first one).
        case publishing(lastTimestamp: UInt32?)
    }
    var state = State.idle
    /// The address of the last TCP connection, for the connect log line.
    var connectedTo: TCPConnector.Connection?
    /// rtmps://: the TLS version the last connection negotiated ("TLS1.3"), for the log line.
    var tlsProtocol: String?
    /// rtmps:// only: the trusted CAs, loaded at the first TLS connect and kept for the sessions
    /// librtmp holds (released after `RTMP_Close` in `deinit`).
    var tlsTrust: TLSTrust?
    /// rtmps:// only: `strdup` of the host name the TLS session verifies the certificate against,
    /// which GnuTLS reads through the pointer for the session's life (see `TLSSession.handshake`);
    /// replaced, like `urlBuffer`, only after `RTMP_Close` has freed the session that used it.
    var tlsHostBuffer: UnsafeMutablePointer<CChar>?
    /// While publishing: the server's side of the connection, read for a reconnect request
    /// (`takeReconnectRequest`); nil when not publishing or no longer read.
    var publishingInbound: PublishingInbound?

    /// Bytes of RTMP message bodies sent since this publisher was created (media payloads,
    /// plus the "@setDataFrame" prefix of metadata), excluding chunk headers.
    public internal(set) var bytesSent: UInt64 = 0
    /// Messages that were to be sent in place but whose storage was shared, so copy-on-write
    /// copied it (issue 26): 0 while every picture leaves the muxer with its only reference.
    public internal(set) var bodiesCopied = 0

    public init(url: RTMPURL, options: RTMPPublisherOptions = RTMPPublisherOptions(), logger: Logger) {
        LibrtmpLog.setUpProcessOnce()
        self.url = url
        self.options = options
        self.logger = logger
        self.logSink = LibrtmpLogSink(logger: logger, redactor: url.redactor, levelCap: options.librtmpLogLevelCap,
                                      debugLogging: options.librtmpDebugLogging)
        guard let rtmp = RTMP_Alloc() else { fatalError("RTMP_Alloc: out of memory") }
        // RTMP_Alloc is calloc: socket 0 would look "connected" to RTMP_Close. Init sets -1.
        RTMP_Init(rtmp)
        self.rtmp = rtmp
    }

    deinit {
        _ = try? LibrtmpLog.withSink(logSink) { () throws(RTMPError) in RTMP_Close(rtmp) }
        RTMP_Free(rtmp)
        free(urlBuffer)
        free(tlsHostBuffer)
    }

    /// True between a successful `connect()` and `close()` or a failed send.
    public var isPublishing: Bool {
        if case .publishing = state { return RTMP_IsConnected(rtmp) != 0 }
        return false
    }

    /// Ends the session: librtmp sends FCUnpublish and deleteStream, then closes the socket.
    /// Idempotent.
    public func close() {
        let wasPublishing = isPublishing
        watch.detach()
        _ = try? LibrtmpLog.withSink(logSink) { () throws(RTMPError) in RTMP_Close(rtmp) }
        state = .idle
        publishingInbound = nil
        if wasPublishing {
            logger.info(
                "RTMP publish closed",
                metadata: ["url": "\(url)", "bytesSent": "\(bytesSent)", "bodiesCopied": "\(bodiesCopied)"])
        }
    }

    func error(_ kind: RTMPError.Kind, detail: String? = nil) -> RTMPError {
        RTMPError(kind: kind, url: url.redacted, detail: detail.map { logSink.redactor.redactForDisplay($0) })
    }
}

/// One owner, one thread: see the type's documentation.
@available(*, unavailable)
extension RTMPPublisher: Sendable {}
