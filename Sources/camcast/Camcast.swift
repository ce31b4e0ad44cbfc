import ArgumentParser

/// `camcast`: parse the command line, then hand over to CamcastDaemon.
@main
struct Camcast: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "camcast",
        abstract: "Streams a V4L2 camera (or a test pattern) to RTMP servers and FLV files.",
        subcommands: [RunCommand.self, CheckConfigCommand.self, DevicesCommand.self]
    )
}
