import RTMP

extension RTMPError {
    /// Whether retrying costs the server nothing (see `ReconnectSchedule`).
    var failureKind: RTMPFailureKind {
        switch kind {
        case .dnsFailure, .connectionRefused, .connectTimeout, .connectFailed, .handshakeFailed, .writeFailed,
            .sendTimeout, .serverClosed, .notConnected:
            .cheap
        case .connectRejected, .publishRejected, .alreadyPublishing, .authenticationFailed, .messageTooLarge,
            .setupFailed:
            .expensive
        }
    }
}
