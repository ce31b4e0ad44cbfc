extension CamcastConfig {
    /// `queue:` — the bounded send queue in front of each RTMP output.
    public struct QueueConfig: Sendable, Equatable {
        /// Media time the queue may hold before it drops up to the next IDR.
        public var maxSeconds: Double = 2

        public init() {}
    }
}
