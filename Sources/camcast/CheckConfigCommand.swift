import ArgumentParser
import CamcastDaemon

/// `camcast check-config FILE`: validate a config file without starting anything.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check a config file: list every problem (exit 78) or summarise what it would run (exit 0)."
    )

    @Argument(help: "The YAML config file.")
    var file: String

    func run() throws {
        let status = CamcastRunner.checkConfig(path: file)
        if status != 0 { throw ExitCode(status) }
    }
}
