extension CamcastConfig {
    /// `status:` — the periodic one-line status in the log.
    public struct StatusConfig: Sendable, Equatable {
        public var intervalSeconds: Double = 30

        public init() {}
    }
}
