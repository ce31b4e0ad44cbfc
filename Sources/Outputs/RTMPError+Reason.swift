import RTMP

extension RTMPError {
    /// A short fixed word for why an attempt failed: the `reason` label of
    /// `camcast_output_connect_failures_total`, so a fixed set (never the server's own text).
    var metricReason: String {
        switch kind {
        case .dnsFailure: "dns"
        case .connectionRefused: "refused"
        case .connectTimeout: "timeout"
        case .connectFailed: "connect_failed"
        case .uplinkUnavailable: "uplink"
        case .handshakeFailed: "handshake"
        case .connectRejected, .publishRejected, .alreadyPublishing: "rejected"
        case .authenticationFailed: "auth"
        case .tlsFailed: "tls"
        case .certificateRejected: "certificate"
        case .protocolViolation: "protocol"
        case .writeFailed, .sendTimeout, .serverClosed, .notConnected, .messageTooLarge: "lost"
        case .setupFailed, .cancelled: "other"
        }
    }
}
