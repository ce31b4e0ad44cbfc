import Logging
import Telemetry

/// What a file output says when its file did not open within `ContainerWriter`'s patience (a
/// hung disk or network mount): the start or reload goes on without it, and the output stays
/// `starting`, with the path in its reason, until the open returns.
package enum FileOpeningDelay {
    /// Marks the meter (from `ContainerWriter.start`'s `onDelay`: no I/O). `path`: the file or
    /// folder, never a URL (file outputs have no stream key).
    package static func mark(path: String, meter: OutputMeter?) {
        meter?.enter(.starting, error: "\(path) does not open yet (a hung disk or mount?); writing starts when it answers")
    }

    package static func log(path: String, logger: Logger) {
        logger.warning(
            "file does not open yet (a hung disk or mount?); the other outputs go on, and this one starts writing when the path answers",
            metadata: ["path": "\(path)", "waited_seconds": "\(ContainerWriter.openPatienceSeconds)"])
    }
}
