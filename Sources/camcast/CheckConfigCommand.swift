import ArgumentParser
import CamcastDaemon

/// `camcast check-config FILE`: validate a config file without starting anything.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check a config file as `run` would start it: list every problem (exit 78) or summarise what it would run (exit 0).",
        discussion: "Runs every check `camcast run --config FILE` runs at start, with the CAMCAST_* environment applied. To check an installed instance as its unit runs it: camcast check-config /etc/camcast/NAME.yaml --env-file /etc/camcast/NAME.env"
    )

    @Argument(help: "The YAML config file.")
    var file: String

    @Option(name: .customLong("env-file"), help: "A systemd EnvironmentFile (KEY=VALUE lines) to apply instead of this shell's CAMCAST_* variables, as the unit does.")
    var envFile: String?

    func run() throws {
        let status = CamcastRunner.checkConfig(path: file, envFile: envFile)
        if status != 0 { throw ExitCode(status) }
    }
}
