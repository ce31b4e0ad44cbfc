import Media
#if canImport(Glibc)
import Glibc
#endif

/// A failed connect or send, classified as precisely as librtmp lets us.
///
/// `description` is one line naming the redacted URL; it never contains the stream key
/// (reasons that come from the server or from librtmp pass through the URL's redactor).
public struct RTMPError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The host name did not resolve.
        case dnsFailure
        /// Nothing listens on the port (ECONNREFUSED).
        case connectionRefused
        /// TCP connect, or the handshake/connect/publish exchange, took longer than
        /// `connectTimeoutSeconds`.
        case connectTimeout
        /// TCP connect failed otherwise (e.g. EHOSTUNREACH, ENETUNREACH).
        case connectFailed(errno: Int32)
        /// The output's uplink cannot carry a connection now (`reason`: "interface wwan0 is absent",
        /// "… is down", "source address 192.0.2.10 is not on this machine"): waited for, retried.
        case uplinkUnavailable(reason: String)
        /// TCP connected but the RTMP handshake or connect command failed.
        case handshakeFailed
        /// The server refused the RTMP `connect` (e.g. unknown application) or closed the
        /// connection before we asked to publish.
        case connectRejected(reason: String)
        /// The server refused `publish`: an onStatus error code (e.g. NetStream.Publish.BadName),
        /// or it closed the connection after the publish request (nginx-rtmp's `deny publish`
        /// and failed `on_publish` do this).
        case publishRejected(reason: String)
        /// The server refused the publish because the stream name is still being published —
        /// usually our own previous connection, which the server has not yet timed out.
        case alreadyPublishing(reason: String)
        /// The server refused the credentials (a wrong key or token).
        case authenticationFailed(reason: String)
        /// A send failed with this errno.
        case writeFailed(errno: Int32)
        /// A send made no progress for `sendTimeoutSeconds` (SO_SNDTIMEO / TCP_USER_TIMEOUT).
        case sendTimeout
        /// The server closed the connection (EPIPE, ECONNRESET, or EOF).
        case serverClosed
        /// `send` without a successful `connect`, or after a failure or `close`.
        case notConnected
        /// A message body longer than RTMP's 24-bit length field.
        case messageTooLarge(bytes: Int)
        /// The server sent something Camcast does not hand to librtmp: a message over the size
        /// limit, too many interleaved chunk streams, AMF0 too deep or too wide, an invalid chunk
        /// size (see `RTMPServerLimits`). `reason` names sizes and counts, never server bytes.
        case protocolViolation(reason: String)
        /// librtmp rejected the URL or could not allocate (should not happen: we validate first).
        case setupFailed
        /// rtmps://: the server's certificate was refused — `reason` names why (unknown issuer,
        /// expired, issued for another name). Nothing was sent to the RTMP server.
        case certificateRejected(reason: String)
        /// rtmps://: the TLS handshake failed otherwise, or the trusted CAs could not be loaded.
        case tlsFailed(reason: String)
        /// The connect was cancelled from another thread (`RTMPConnectionWatch.cancel`): the
        /// output is stopping.
        case cancelled
    }

    public let kind: Kind
    /// The redacted URL of the publisher.
    public let url: String
    /// Extra facts (resolver message, librtmp's reason), already redacted.
    public let detail: String?

    public init(kind: Kind, url: String, detail: String? = nil) {
        self.kind = kind
        self.url = url
        self.detail = detail
    }

    public var description: String {
        var text = "RTMP \(Self.summary(kind)) (\(url))"
        if let detail, !detail.isEmpty { text += ": \(detail)" }
        return text
    }

    static func summary(_ kind: Kind) -> String {
        switch kind {
        case .dnsFailure: return "host name did not resolve"
        case .connectionRefused: return "connection refused"
        case .connectTimeout: return "connect timed out"
        case .connectFailed(let code): return "connect failed: \(errnoText(code))"
        case .uplinkUnavailable(let reason): return "\(reason); waiting for it"
        case .handshakeFailed: return "handshake failed"
        case .connectRejected(let reason): return "connect rejected by server: \(reason)"
        case .publishRejected(let reason): return "publish rejected by server: \(reason)"
        case .alreadyPublishing(let reason): return "stream already publishing on the server: \(reason)"
        case .authenticationFailed(let reason): return "authentication failed: \(reason)"
        case .writeFailed(let code): return "send failed: \(errnoText(code))"
        case .sendTimeout: return "send timed out"
        case .serverClosed: return "server closed the connection"
        case .notConnected: return "not connected"
        case .messageTooLarge(let bytes): return "message of \(bytes) bytes exceeds 16 MiB"
        case .protocolViolation(let reason): return "protocol violation: \(reason)"
        case .setupFailed: return "librtmp setup failed"
        case .cancelled: return "connect cancelled"
        case .certificateRejected(let reason): return "server certificate refused: \(reason)"
        case .tlsFailed(let reason): return "TLS failed: \(reason)"
        }
    }

    static func errnoText(_ code: Int32) -> String {
        "\(SystemCallError.message(code)) (errno \(code))"
    }
}
