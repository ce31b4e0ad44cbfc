import Encoder
import Logging
import Media
import Telemetry

/// Writes the stream to a raw `.h264` or `.h265` file (Annex-B), optionally only its first `maxFrames`
/// pictures, through a `ContainerWriter` (a thread of its own; no lock held across a write).
/// Like every output it muxes the codec-neutral packets itself and fails alone (issue 14 #8).
package final class AnnexBFileOutput: StreamOutput {
    package let name: String
    package var threadName: String { ContainerWriter.threadName }
    private let path: String
    private let frameLimit: Int?
    private let logger: Logger
    private let onFailure: @Sendable (OutputFailure) -> Void
    /// Bytes written, for the operator's view.
    private let meter: OutputMeter?
    private let writer: ContainerWriter

    package init(
        path: String, frameLimit: Int?, logger: Logger, requestKeyframe: @escaping @Sendable () -> Void = {},
        onFailure: @escaping @Sendable (OutputFailure) -> Void, meter: OutputMeter? = nil
    ) {
        self.path = path
        name = path
        self.frameLimit = frameLimit
        self.logger = logger
        self.onFailure = onFailure
        self.meter = meter
        writer = ContainerWriter(name: path, logger: logger, requestKeyframe: requestKeyframe)
    }

    /// Creates the file on the writer's thread: a path that fails at once throws here, one
    /// that hangs (a dead mount) leaves the output starting until the path answers.
    package func open() throws(OutputFailure) {
        let (path, frameLimit, logger, meter) = (self.path, self.frameLimit, self.logger, self.meter)
        let start = try writer.start(
            opening: { () throws(OutputFailure) -> AnnexBContainerFile in
                do {
                    return AnnexBContainerFile(writer: try AnnexBWriter(path: path, frameLimit: frameLimit), logger: logger, meter: meter)
                } catch {
                    throw OutputFailure(output: path, reason: "\(error)")
                }
            },
            onDelay: { FileOpeningDelay.mark(path: path, meter: meter) },
            onOpened: { _ in
                logger.info("writing Annex-B file", metadata: ["path": "\(path)"])
                meter?.enter(.writing)
            },
            onFailure: onFailure)
        if start == .stillOpening { FileOpeningDelay.log(path: path, logger: logger) }
    }

    package func write(_ packet: MediaPacket) {
        // An H.264 elementary stream has no place for sound.
        guard packet.mediaKind == .video else { return }
        writer.push(packet)
    }

    package func finish(endTime: Int64, drainSeconds: Double) {
        defer { meter?.enter(.stopped) }
        writer.stop(.finish(endTime: endTime), drainSeconds: drainSeconds)
    }

    /// Lock-free counters only: a hung write never blocks the status snapshot.
    package var statistics: OutputStatistics {
        let sent = writer.sentFrames.load(ordering: .relaxed)
        return OutputStatistics(
            queuedPackets: writer.queuedPackets, queuedMilliseconds: writer.queuedMilliseconds,
            queueBoundMilliseconds: writer.queueBoundMilliseconds, droppedFrames: writer.droppedFrames,
            sentFrames: sent, isComplete: frameLimit.map { sent >= $0 } ?? false)
    }

    package func discardIfUnused() {
        defer { meter?.enter(.stopped) }
        writer.stop(.discardIfUnused, drainSeconds: 0)
    }
}
