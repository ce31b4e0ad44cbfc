import Logging

/// The settings of one run and the log level, after every check passed.
struct ResolvedRun: Sendable {
    var settings: RunSettings
    var logLevel: Logger.Level
    /// Said once at start: e.g. a world-readable config file that holds a stream key.
    var warnings: [String]
}
