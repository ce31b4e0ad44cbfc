extension CamcastConfig {
    /// `network:` — socket timeouts for RTMP (librtmp has only a receive timeout; the send timeout
    /// is set on the socket by the publisher).
    public struct NetworkConfig: Sendable, Equatable {
        public var connectTimeoutSeconds: Double = 10
        public var sendTimeoutSeconds: Double = 10
        /// rtmps:// only: CA certificates (PEM) trusted besides the system store, for an ingest
        /// whose certificate a private CA signed. nil: the system store alone.
        public var tlsCAFile: String?

        public init() {}
    }
}
