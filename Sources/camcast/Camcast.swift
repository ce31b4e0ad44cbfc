import ArgumentParser
import CamcastDaemon
import Config
import Media
#if canImport(Glibc)
import Glibc
#endif

/// `camcast`: parse the command line, then hand over to CamcastDaemon.
@main
struct Camcast: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "camcast",
        abstract: "Streams a V4L2 camera (or a test pattern) to RTMP servers and FLV files.",
        version: "camcast \(CamcastVersion.string)",
        subcommands: [RunCommand.self, CheckConfigCommand.self, DevicesCommand.self]
    )

    /// ArgumentParser's own `main`, except that a usage error (an unknown flag, a value that does
    /// not parse, a missing argument) exits 78 (EX_CONFIG) with the parser's message, like every
    /// other configuration error, instead of the parser's 64 (EX_USAGE): systemd's
    /// `RestartPreventExitStatus=78` must stop a restart loop on a bad ExecStart line too.
    static func main() async {
        do {
            var command = try await asyncParseAsRoot(nil)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                // One write(2) of the whole message; nowhere to report a failure to write it.
                try? SystemCall.writeAll(2, Array((fullMessage(for: error) + "\n").utf8))
                Glibc.exit(ConfigError.exitCode)
            }
            exit(withError: error)
        }
    }
}
