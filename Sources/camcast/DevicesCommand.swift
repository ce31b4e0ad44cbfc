import ArgumentParser
import V4L2

/// `camcast devices [--json]`: what V4L2 cameras this machine has and what they can deliver.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List V4L2 devices with driver, card, stable path, and every format, size and frame rate."
    )

    @Flag(help: "Print JSON for scripts instead of text.")
    var json = false

    func run() throws {
        let devices = V4L2DeviceLister.list()
        if json {
            print(try V4L2DeviceLister.json(devices))
        } else {
            print(V4L2DeviceLister.describe(devices), terminator: "")
        }
    }
}
