import RTMPAddress

/// The facts this module reads from librtmp's log lines to classify failures.
///
/// librtmp 2.4 reports most failures only as a FALSE return and a log line; errno is
/// often overwritten by the cleanup (`RTMP_Close`) that runs before the call returns.
/// The patterns below are the format strings of librtmp 2.4 (rtmp.c, 2015-12-23).
enum LibrtmpLogEvent: Sendable, Equatable {
    /// `"HandShake: …"` failure or `"%s, handshake failed."`
    case handshakeFailed
    /// `"%s, RTMP connect failed."` (the connect command could not be sent)
    case connectCommandFailed
    /// `"%s, RTMP send error %d (%d bytes)"` from WriteN: the errno of the failed send().
    case sendError(errno: Int32)
    /// `"Invoking %s"`: librtmp sent this command (connect, createStream, publish, …).
    case invoked(method: String)
    /// `"%s, onStatus: %s"`: a NetStream/NetConnection status code from the server.
    case onStatus(code: String)
    /// `"%s, error description: %s"`: the description of an `_error` reply to connect.
    case errorDescription(String)
    /// `"%s, received error for method call <%s>"`: an `_error` reply.
    case errorReply(method: String)
    /// `"rtmp server sent error"`
    case serverSentError
    /// `"rtmp server requested close"`
    case serverRequestedClose
    /// `"%s, RTMP socket closed by peer"`
    case closedByPeer
    /// Not a log line: the `description` of an onStatus the server sent (read from the packet by
    /// `RTMPCommandSummary` from the checked message, since librtmp logs only the code), made safe by
    /// `StreamKeyRedactor.redactForDisplay`.
    case statusDescription(String)

    /// Parses one raw (unredacted) line. String payloads are redacted, escaped and capped here
    /// (`StreamKeyRedactor.redactForDisplay`), so no event holds the key or a control character.
    init?(line: String, redactor: StreamKeyRedactor) {
        func after(_ marker: String) -> String? {
            guard let range = line.firstRange(of: marker) else { return nil }
            return String(line[range.upperBound...])
        }
        if let rest = after("RTMP send error ") {
            let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
            guard let code = Int32(digits) else { return nil }
            self = .sendError(errno: code)
        } else if let rest = after("onStatus: ") {
            self = .onStatus(code: redactor.redactForDisplay(rest))
        } else if let rest = after("error description: ") {
            self = .errorDescription(redactor.redactForDisplay(rest))
        } else if let rest = after("received error for method call <") {
            self = .errorReply(method: redactor.redactForDisplay(String(rest.prefix(while: { $0 != ">" }))))
        } else if line.hasPrefix("Invoking ") {
            self = .invoked(method: redactor.redactForDisplay(String(line.dropFirst("Invoking ".count))))
        } else if line.contains("handshake failed") || line.hasPrefix("HandShake: ") && line.contains("failed") {
            self = .handshakeFailed
        } else if line.contains("RTMP connect failed") {
            self = .connectCommandFailed
        } else if line.contains("rtmp server sent error") {
            self = .serverSentError
        } else if line.contains("rtmp server requested close") {
            self = .serverRequestedClose
        } else if line.contains("RTMP socket closed by peer") {
            self = .closedByPeer
        } else {
            return nil
        }
    }

    /// onStatus codes that mean "no": anything that is not a `…Start`/`…Success` and names a
    /// failure (NetStream.Publish.BadName, NetStream.Failed, NetConnection.Connect.Rejected, …).
    var isRefusalStatus: Bool {
        guard case .onStatus(let code) = self else { return false }
        let failureWords = ["Failed", "BadName", "Rejected", "Denied", "Invalid", "Unauthorized", "Error", "Closed"]
        return failureWords.contains { code.contains($0) }
    }
}
