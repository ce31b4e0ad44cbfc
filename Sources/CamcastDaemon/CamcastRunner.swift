#if canImport(Glibc)
import Glibc
#endif
import Capture
import Config
import Dispatch
import Encoder
import FoundationEssentials  // ProcessInfo only: full Foundation brings ICU (30 MB) into the static binary
import Logging
import ServiceLifecycle
import StatusServer

/// Runs `camcast run` start to finish and says how the process should exit.
///
/// Around the pipeline it runs the daemon's side: signals (SIGTERM/SIGINT stop gracefully, a
/// second one exits at once, SIGHUP reloads), systemd notifications (READY, STATUS, RELOADING,
/// STOPPING, WATCHDOG), the periodic status line and adaptive bitrate (`BitrateAdapter`).
public enum CamcastRunner {
    /// A graceful stop that takes longer than this is cut short (exit 1). Below systemd's
    /// TimeoutStopSec=20 in the units, so the daemon ends itself before systemd has to SIGKILL it.
    static let stopBoundSeconds = 15.0

    public static func run(_ flags: CommandLineSettings) async -> Int32 {
        let environment = settingsEnvironment()
        let resolved: ResolvedRun
        do {
            resolved = try SettingsResolver.resolve(flags, environment: environment)
        } catch {
            printProblems(error)
            return ConfigError.exitCode
        }
        let logLevel = LogLevelSetting(resolved.logLevel)
        LoggingSystem.bootstrap { label in ConsoleLogHandler.standard(label: label, level: logLevel) }
        let logger = Logger(label: "camcast")
        // libavcodec's and libavformat's own lines, through this log only (not raw on stderr too).
        LibavLog.route(to: logger)
        // The first line says which build is running (bug reports quote the journal).
        logger.info("camcast \(CamcastVersion.string) starting", metadata: ["pid": "\(getpid())"])
        for warning in resolved.warnings { logger.warning("\(warning)") }
        // A peer that vanishes must show up as a write error, not kill the process.
        signal(SIGPIPE, SIG_IGN)
        let signals = DaemonSignals.start()

        let notifier = SystemdNotifier(environment: environment)
        let control = PipelineControl()
        let pipeline = Pipeline(settings: resolved.settings, logger: logger, control: control)
        let status = StatusReporter(
            notifier: notifier, control: control, logger: logger, initialIntervalSeconds: resolved.settings.statusIntervalSeconds)
        let watchdog = Watchdog(notifier: notifier, control: control, logger: logger)
        let adapter = BitrateAdapter(control: control, logger: logger)
        let configFile = flags.configPath
        control.telemetry.setCollector { control.collectTelemetry(configFile: configFile) }
        control.telemetry.setGraphSource { control.runningStages.map(control.graph(of:)) }
        let http = StatusHTTPServer(
            listen: resolved.settings.http?.listen, endpoints: StatusEndpoints(registry: control.telemetry, snapshot: { control.snapshotJPEG() }),
            logger: logger)
        // Shut down in reverse order: the watchdog and the status line end first, the pipeline
        // (flush, drains, end-of-sequence tags) last. The pipeline ending (a duration, a source at
        // its end) shuts the others down; they may end early themselves (no systemd watchdog).
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: pipeline, successTerminationBehavior: .gracefullyShutdownGroup),
                    .init(service: status, successTerminationBehavior: .ignore),
                    .init(service: watchdog, successTerminationBehavior: .ignore),
                    .init(service: adapter, successTerminationBehavior: .ignore),
                    .init(service: http, successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore),
                ],
                logger: logger))
        let reloads = ReloadCoordinator(
            flags: flags, environment: environment, control: control, notifier: notifier, logLevel: logLevel, logger: logger,
            http: http)

        // Signals stay outside the group: a second SIGTERM/SIGINT exits at once and SIGHUP reloads,
        // which the group's own signal handling does not do.
        let exitCode: Int32 = await withTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                await handle(signals, group: group, reloads: reloads, control: control, notifier: notifier, logger: logger)
            }
            let exitCode: Int32
            do {
                try await group.run()
                exitCode = 0
            } catch {
                printError("error: \(error)")
                exitCode = isConfigurationProblem(error) ? ConfigError.exitCode : 1
            }
            tasks.cancelAll()
            return exitCode
        }
        notifier.stopping()
        return exitCode
    }

    /// Failures at start that no restart mends: a file output that cannot be opened, no output at
    /// all, a camera path that can never be a capture device (a node that is not V4L2), a file
    /// source that cannot give its first picture.
    static func isConfigurationProblem(_ error: any Error) -> Bool {
        switch error {
        case PipelineError.outputUnavailable, PipelineError.noOutputs, PipelineError.sourceUnusable: true
        case let capture as CaptureError: capture.isFinalAtStart
        default: false
        }
    }

    /// The first SIGTERM/SIGINT stops gracefully (bounded by `stopBoundSeconds`); a second one
    /// exits at once with 128 + the signal number, as a shell reports a killed process.
    private static func handle(
        _ signals: AsyncStream<Int32>, group: ServiceGroup, reloads: ReloadCoordinator, control: PipelineControl,
        notifier: SystemdNotifier, logger: Logger
    ) async {
        var stopping = false
        for await number in signals {
            if number == SIGUSR1 {
                // The full status in the log, as /status has it; the daemon goes on.
                StatusReporter.logFullStatus(control.telemetry.report(), graph: control.telemetry.graph(), logger: logger)
                continue
            }
            if number == SIGHUP {
                // Not awaited: a stop signal must be heard while a reload connects outputs.
                if !stopping { Task { await reloads.reload() } }
                continue
            }
            guard !stopping else {
                printError("\(DaemonSignals.name(number)) again: exiting at once", level: .notice)
                _exit(128 + number)
            }
            stopping = true
            logger.notice("stopping", metadata: ["signal": "\(DaemonSignals.name(number))"])
            notifier.stopping()
            // A timer, not a way to wait: nothing blocks on it. It runs on libdispatch's own
            // threads (the ones the async runtime itself stands on), so it fires even when the
            // stop it bounds has blocked the cooperative pool or a stage thread — a Task.sleep
            // could not; a thread of our own sleeping on a WakeEvent would do the same with
            // more code.
            DispatchQueue.global().asyncAfter(deadline: .now() + stopBoundSeconds) {
                printError("error: did not stop within \(Int(stopBoundSeconds)) s; exiting")
                _exit(1)
            }
            await group.triggerGracefulShutdown()
        }
    }

    /// The process's environment as settings see it. A debug build's test hooks
    /// (`CAMCAST_DEBUG_*`) are not settings there; a release build has no hooks, so one of them
    /// set is refused like any misspelt `CAMCAST_*` name (exit 78 naming it), not silently ignored.
    static func settingsEnvironment() -> [String: String] {
        #if DEBUG
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix(CamcastConfig.debugHookPrefix) }
        #else
        ProcessInfo.processInfo.environment
        #endif
    }

    /// `camcast check-config FILE`: every problem `camcast run --config FILE` would stop on, found by
    /// the same code (environment overrides, outputs and their directories, the WAV file, a file
    /// source's header, the TLS CA file), or a summary of what it runs. With `envFile`, that file's
    /// variables are the environment, as the unit's `EnvironmentFile=` makes them; without, this
    /// process's `CAMCAST_*` variables apply, as they would to a `run` from the same shell.
    public static func checkConfig(path: String, envFile: String? = nil) -> Int32 {
        do {
            var environment = settingsEnvironment()
            if let envFile { environment = try EnvironmentFile.load(path: envFile) }
            let resolved = try SettingsResolver.resolve(CommandLineSettings(configPath: path), environment: environment)
            for warning in resolved.warnings { printError("warning: \(warning)", level: .warning) }
            print("\(path): OK — \(summary(of: resolved.settings))")
            for line in ScheduleReport.lines(resolved.schedule, outputs: resolved.scheduledOutputs, now: .now()) { print(line) }
            return 0
        } catch {
            printProblems(error)
            return ConfigError.exitCode
        }
    }

    /// What a run will do, in one line: source, size and rate, codec and bitrate, audio, outputs.
    static func summary(of settings: RunSettings) -> String {
        let audio = settings.audio.map(\.description) ?? "none"
        return "source \(settings.source), \(settings.encoder.size)@\(settings.encoder.frameRate), "
            + "\(settings.encoder.encoderName) \(settings.encoder.bitrateKbps) kbit/s, audio \(audio), "
            + "outputs: \(settings.outputs.map(\.description).joined(separator: ", "))"
    }

    /// Every config problem on its own line; exit status 78 (EX_CONFIG) follows, which systemd's
    /// RestartPreventExitStatus=78 keeps from restarting in a loop.
    static func printProblems(_ error: ConfigError) {
        for problem in error.problems {
            printError("\(problem)")
        }
    }

    /// One line on stderr, prefixed so it stands out from the log lines before it (and, when
    /// stderr is the journal, with its priority: these lines bypass the log handler).
    static func printError(_ message: String, level: Logger.Level = .error) {
        let priority = ConsoleLogHandler.Style.current == .journal ? level.journalPrefix : ""
        StandardError.write(priority + "camcast: \(message)")
    }
}
