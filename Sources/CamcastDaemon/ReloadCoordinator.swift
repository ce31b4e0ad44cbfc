import Config
import Logging
import Media
import StatusServer

/// SIGHUP: read the config file again and apply it to the running pipeline.
///
/// The new file goes through exactly the checks of a start (SettingsResolver, with the same
/// command-line flags and environment on top, so flags keep winning). If it has any problem,
/// every problem is logged and nothing changes; the same if the encoder the file switches to
/// will not open. systemd hears RELOADING=1 before and READY=1 after,
/// either way.
///
/// Reloads run one at a time: the actor alone does not ensure that, since it lets a second call
/// in while the first awaits the pipeline (issue 26 #3: two reloads side by side, RELOADING=1
/// and READY=1 interleaved). A SIGHUP that arrives during a reload is remembered, and however
/// many arrive, they make one more reload after it, which reads the file as it is then.
actor ReloadCoordinator {
    /// A reload is under way.
    private var isReloading = false
    /// A SIGHUP came during it: reload once more when it is done.
    private var isRequestedAgain = false

    private let flags: CommandLineSettings
    private let environment: [String: String]
    private let control: PipelineControl
    private let notifier: SystemdNotifier
    private let logLevel: LogLevelSetting
    private let logger: Logger
    /// `http.*` applies on every reload (credentials rotate without a restart).
    private let http: StatusHTTPServer?

    init(
        flags: CommandLineSettings, environment: [String: String], control: PipelineControl,
        notifier: SystemdNotifier, logLevel: LogLevelSetting, logger: Logger, http: StatusHTTPServer? = nil
    ) {
        self.http = http
        self.flags = flags
        self.environment = environment
        self.control = control
        self.notifier = notifier
        self.logLevel = logLevel
        self.logger = logger
    }

    /// Reloads now, or once more after the reload under way.
    func reload() async {
        guard !isReloading else {
            isRequestedAgain = true
            return
        }
        isReloading = true
        repeat {
            isRequestedAgain = false
            await reloadOnce()
        } while isRequestedAgain
        isReloading = false
    }

    private func reloadOnce() async {
        notifier.reloading()
        logger.notice("reloading", metadata: ["config": "\(flags.configPath ?? "none")"])
        let resolved: ResolvedRun
        do {
            resolved = try SettingsResolver.resolve(flags, environment: environment)
        } catch {
            for problem in error.problems { logger.error("\(problem)") }
            logger.error("reload rejected; the stream continues unchanged", metadata: ["problems": "\(error.problems.count)"])
            notifier.ready(status: "reload rejected: \(error.problems.count) problem(s) in the config; running unchanged")
            return
        }
        let control = self.control
        let settings = resolved.settings
        // Opening outputs and restarting stages blocks: keep that off the cooperative pool.
        let outcome = await DedicatedThread.run { control.reload(to: settings) }
        if outcome.changedNothing {
            // All or nothing, as for a file with problems: the warnings are about settings that
            // are not in force, and the log level and HTTP listener stay as they were.
            for failure in outcome.failures { logger.error("reload failed: \(failure)") }
            logger.error("reload failed; the stream continues unchanged")
            notifier.ready(status: "reload failed: \(outcome.failures.joined(separator: "; ")); running unchanged")
            return
        }
        for warning in resolved.warnings { logger.warning("\(warning)") }
        http?.apply(resolved.settings.http?.listen)
        if logLevel.level != resolved.logLevel {
            logLevel.level = resolved.logLevel
            logger.notice("log level changed", metadata: ["level": "\(resolved.logLevel)"])
        }
        for change in outcome.applied { logger.notice("reload applied: \(change)") }
        for key in outcome.needsRestart { logger.warning("reload: \(key) changed; it takes effect at the next restart") }
        for failure in outcome.failures { logger.error("reload failed: \(failure)") }
        let summary = outcome.applied.isEmpty && outcome.needsRestart.isEmpty && outcome.failures.isEmpty
            ? "nothing changed" : "\(outcome.applied.count) applied, \(outcome.needsRestart.count) need a restart, \(outcome.failures.count) failed"
        logger.notice("reloaded", metadata: ["result": "\(summary)"])
        notifier.ready(status: "reloaded: \(summary)")
    }
}
