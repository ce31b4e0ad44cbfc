#if canImport(Glibc)
import Glibc
#endif
import Logging
import ServiceLifecycle

/// Runs `camcast run` start to finish and says how the process should exit.
public enum CamcastRunner {
    /// EX_CONFIG from sysexits.h: systemd's RestartPreventExitStatus=78 keeps a bad config from looping.
    public static let configErrorExitCode: Int32 = 78

    public static func run(_ flags: CommandLineSettings) async -> Int32 {
        let resolved: ResolvedRun
        do {
            resolved = try SettingsResolver.resolve(flags)
        } catch {
            for problem in error.problems {
                printError(problem)
            }
            return configErrorExitCode
        }
        LoggingSystem.bootstrap { label in ConsoleLogHandler.standard(label: label, level: resolved.logLevel) }
        let logger = Logger(label: "camcast")
        // A peer that vanishes must show up as a write error, not kill the process.
        signal(SIGPIPE, SIG_IGN)

        let pipeline = Pipeline(settings: resolved.settings, logger: logger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: pipeline, successTerminationBehavior: .gracefullyShutdownGroup)
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        do {
            try await group.run()
            return 0
        } catch {
            printError("error: \(error)")
            return 1
        }
    }

    /// One line on stderr, prefixed so it stands out from the log lines before it.
    static func printError(_ message: String) {
        StandardError.write("camcast: \(message)")
    }
}
