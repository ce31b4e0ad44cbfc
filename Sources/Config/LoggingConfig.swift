extension CamcastConfig {
    /// `logging:` — how much the daemon says.
    public struct LoggingConfig: Sendable, Equatable {
        /// swift-log's levels, spelled as its `Logger.Level` raw values so the daemon can map them 1:1.
        public enum Level: String, Sendable, CaseIterable {
            case trace, debug, info, notice, warning, error, critical
        }

        public var level: Level = .info

        public init() {}
    }
}
