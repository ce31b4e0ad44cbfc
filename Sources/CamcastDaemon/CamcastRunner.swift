#if canImport(Glibc)
import Glibc
#endif
import Config
import Foundation
import Logging
import ServiceLifecycle

/// Runs `camcast run` start to finish and says how the process should exit.
public enum CamcastRunner {
    public static func run(_ flags: CommandLineSettings) async -> Int32 {
        let resolved: ResolvedRun
        do {
            resolved = try SettingsResolver.resolve(flags, environment: ProcessInfo.processInfo.environment)
        } catch {
            printProblems(error)
            return ConfigError.exitCode
        }
        LoggingSystem.bootstrap { label in ConsoleLogHandler.standard(label: label, level: resolved.logLevel) }
        let logger = Logger(label: "camcast")
        for warning in resolved.warnings { logger.warning("\(warning)") }
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

    /// `camcast check-config FILE`: every problem of the file, or a one-line summary of what it runs.
    public static func checkConfig(path: String) -> Int32 {
        do {
            let config = try CamcastConfig.load(path: path)
            let resolved = try SettingsResolver.runSettings(from: config, durationSeconds: nil, warnings: [])
            if let warning = config.worldReadableKeyWarning(path: path) { printError("warning: \(warning)") }
            let settings = resolved.settings
            print(
                "\(path): OK — source \(settings.source), \(settings.encoder.size)@\(settings.encoder.frameRate), "
                    + "\(settings.encoder.bitrateKbps) kbit/s, outputs: \(settings.outputs.map(\.description).joined(separator: ", "))")
            return 0
        } catch {
            printProblems(error)
            return ConfigError.exitCode
        }
    }

    /// Every config problem on its own line; exit status 78 (EX_CONFIG) follows, which systemd's
    /// RestartPreventExitStatus=78 keeps from restarting in a loop.
    static func printProblems(_ error: ConfigError) {
        for problem in error.problems {
            printError("\(problem)")
        }
    }

    /// One line on stderr, prefixed so it stands out from the log lines before it.
    static func printError(_ message: String) {
        StandardError.write("camcast: \(message)")
    }
}
