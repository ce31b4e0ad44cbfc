import Config
import Logging

/// The settings of one run and the log level, after every check passed.
struct ResolvedRun: Sendable {
    var settings: RunSettings
    var logLevel: Logger.Level
    /// Said once at start: e.g. a world-readable config file that holds a stream key.
    var warnings: [String]
    /// When the stream and each output are wanted (`schedule:`): check-config prints its next
    /// transitions.
    var schedule = CamcastConfig.ScheduleConfig()
    /// The outputs the schedule is keyed by, in the config's order, with their names.
    var scheduledOutputs: [(output: CamcastConfig.OutputConfig, name: String?)] = []
}
