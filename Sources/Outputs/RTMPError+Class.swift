import RTMP

extension RTMPError {
    /// Whether retrying costs the server nothing (see `ReconnectSchedule`).
    var failureKind: RTMPFailureKind {
        switch kind {
        case .dnsFailure, .connectionRefused, .connectTimeout, .connectFailed, .handshakeFailed, .writeFailed,
            .sendTimeout, .serverClosed, .notConnected, .tlsFailed, .cancelled, .uplinkUnavailable:
            .cheap
        case .alreadyPublishing:
            .nameHeld
        case .connectRejected, .publishRejected, .authenticationFailed, .messageTooLarge,
            .setupFailed,
            // A server that breaks the protocol, or shows a certificate we refuse, will do it again:
            // back off rather than hammer it.
            .protocolViolation, .certificateRejected:
            .expensive
        }
    }

    /// Camcast cut this connection itself because the peer went silent (the send timeout or the
    /// watchdog): the server may not have seen it end.
    var isDeadPeerCut: Bool { kind == .sendTimeout }
}
