extension CamcastConfig {
    /// `reconnect:` — the RTMP publisher's backoff after a lost or failed connection.
    public struct ReconnectConfig: Sendable, Equatable {
        /// Wait before the first retry.
        public var initialDelaySeconds: Double = 1
        /// Each further wait is the previous one times this.
        public var factor: Double = 1.7
        /// The wait never grows past this.
        public var maxDelaySeconds: Double = 30
        /// Give up after this many failed attempts in a row; 0 retries forever.
        public var maxAttempts: Int = 0
        /// A connection that stayed up this long resets the backoff to `initialDelaySeconds`.
        public var healthyAfterSeconds: Double = 30

        public init() {}
    }
}
