import Media

/// What one SRT caller connection is set up with (config `outputs[].latency_ms`, `passphrase_file`,
/// `pbkeylen`, `streamid`, and `network:`'s timeouts).
///
/// Never printed: the passphrase is a secret and `description` leaves it out.
public struct SRTCallerOptions: Sendable, Hashable, CustomStringConvertible {
    /// SRT's receive latency (SRTO_LATENCY, both directions), 20 … 8000 ms.
    public var latencyMilliseconds: Int
    /// AES passphrase (SRTO_PASSPHRASE, 10 … 79 characters); nil sends in the clear.
    public var passphrase: String?
    /// AES key length in bytes (SRTO_PBKEYLEN): 16, 24 or 32.
    public var keyLength: Int
    /// SRTO_STREAMID: what servers such as mediamtx and SRS route by (`publish:cam1`).
    public var streamID: String?
    /// How long the handshake may take (SRTO_CONNTIMEO).
    public var connectTimeoutSeconds: Int
    /// How long a peer may stay silent, or a send may block, before the connection counts as lost
    /// (SRTO_PEERIDLETIMEO and SRTO_SNDTIMEO: `network.send_timeout_seconds`).
    public var sendTimeoutSeconds: Int
    /// The interface or local address the UDP socket is bound to (`outputs[].interface`,
    /// `source_address`); nil lets the routing table choose.
    public var uplink: Uplink?

    public static let defaultLatencyMilliseconds = 500
    public static let latencyRange = 20...8000
    public static let passphraseLengths = 10...79
    public static let keyLengths = [16, 24, 32]

    public init(
        latencyMilliseconds: Int = defaultLatencyMilliseconds, passphrase: String? = nil, keyLength: Int = 16, streamID: String? = nil,
        connectTimeoutSeconds: Int = 10, sendTimeoutSeconds: Int = 10
    ) {
        self.latencyMilliseconds = latencyMilliseconds
        self.passphrase = passphrase
        self.keyLength = keyLength
        self.streamID = streamID
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.sendTimeoutSeconds = sendTimeoutSeconds
    }

    public var description: String {
        "latency \(latencyMilliseconds) ms" + (passphrase == nil ? "" : ", encrypted (AES-\(keyLength * 8))")
    }
}
