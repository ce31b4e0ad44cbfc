/// One output's figures at one moment: what /status shows and /metrics exports.
public struct OutputReading: Sendable, Equatable, Codable {
    public var name: String
    public var kind: String
    public var target: String
    public var phase: OutputPhase
    public var up: Bool
    public var sinceUnixSeconds: Double
    public var secondsInPhase: Double
    /// Since it was last up (or made); 0 while up.
    public var secondsDown: Double
    public var lastError: String?
    public var attemptsSinceUp: Int
    public var connectAttempts: Int
    public var failuresByReason: [String: Int]
    public var reconnects: Int
    /// The server's reconnect requests (Enhanced RTMP v2) by `ReconnectRequestOutcome`.
    public var reconnectRequests: [String: Int]
    public var sentBytes: Int
    public var sentFrames: Int
    public var droppedCongestion: Int
    public var droppedDisconnected: Int
    public var queueSeconds: Double
    public var queuedPackets: Int
    public var lastPublishUnixSeconds: Double
    /// A segmented recording's figures (where it writes, what it kept and deleted); nil otherwise.
    public var recording: RecordingReading? = nil
    /// An SRT output's link as libsrt reports it (RTT, send buffer, retransmissions, drops); nil
    /// for every other kind.
    public var srtLink: SRTLinkReading? = nil
    /// The leg of a failover or dual-ingest output (`OutputMeter.leg`); nil for an output of its own.
    public var leg: String? = nil
    /// A failover output's leg that carries the stream (1 the primary); nil for any other output.
    public var activeLeg: Int? = nil
    /// An output with a schedule: where its window stands, as the operator reads it — `open until
    /// stop  Mon 2026-11-30 16:27 +01:00  (sunset)` or `rests until start …`; nil without one.
    public var schedule: String? = nil

    /// A network connection of its own (RTMP, SRT): connect attempts and failures say something.
    public var isNetwork: Bool { kind == "rtmp" || kind == "srt" }
    /// A failover or dual-ingest output, whose legs are listed after it.
    public var isGroup: Bool { kind == "failover" || kind == "dual" }

    /// `rtmp-1 down 14 s, 6 attempts: connection refused` — nil while the output is up.
    public var trouble: String? {
        guard !up, phase != .scheduled else { return nil }
        var text = "\(name) \(phase == .failed ? "failed" : "down") \(Int(secondsDown)) s"
        if isNetwork && phase != .starting {
            text += ", \(attemptsSinceUp) attempt\(attemptsSinceUp == 1 ? "" : "s")"
        }
        if let lastError { text += ": \(lastError)" }
        return text
    }
}
