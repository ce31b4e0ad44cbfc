import FLV
import Logging
import Media
import Synchronization
import Telemetry

/// Writes the stream to an `.flv` file through a `ContainerWriter`: the file is written on a
/// thread of its own, so a slow or stuck disk never holds up the encoder, the other outputs, the
/// status snapshot, a stop or a reload. The muxing and the 2^32 ms roll-over are in
/// `FLVContainerFile`.
///
/// A write error (a full disk) ends this output only: the file is closed where it stands and the
/// pipeline is told, which keeps the other outputs running (issue 14 #8).
package final class FLVFileOutput: StreamOutput {
    package let name: String
    package var threadName: String { ContainerWriter.threadName }
    private let path: String
    /// The file header's TypeFlagsAudio.
    private let hasAudio: Bool
    private let metadata: FLVTag
    private let logger: Logger
    private let onFailure: @Sendable (OutputFailure) -> Void
    /// Bytes written, for the operator's view.
    private let meter: OutputMeter?
    private let writer: ContainerWriter

    /// `queueMilliseconds` of media may wait for the disk before frames are dropped up to a
    /// keyframe (which `requestKeyframe` asks the encoder for).
    package init(
        path: String, metadata: FLVTag, hasAudio: Bool = false, logger: Logger,
        queueMilliseconds: Int64 = ContainerWriter.fileQueueMilliseconds,
        requestKeyframe: @escaping @Sendable () -> Void = {}, onFailure: @escaping @Sendable (OutputFailure) -> Void, meter: OutputMeter? = nil
    ) {
        self.path = path
        self.hasAudio = hasAudio
        self.metadata = metadata
        name = path
        self.logger = logger
        self.onFailure = onFailure
        self.meter = meter
        writer = ContainerWriter(name: path, maxSpanMilliseconds: queueMilliseconds, logger: logger, requestKeyframe: requestKeyframe)
    }

    /// Creates the file on the writer's thread: a path that fails at once throws here, one
    /// that hangs (a dead mount) leaves the output starting until the path answers.
    package func open() throws(OutputFailure) {
        let (path, metadata, hasAudio, logger, meter) = (self.path, self.metadata, self.hasAudio, self.logger, self.meter)
        let start = try writer.start(
            opening: { () throws(OutputFailure) -> FLVContainerFile in
                do {
                    return try FLVContainerFile(path: path, metadata: metadata, hasAudio: hasAudio, logger: logger, meter: meter)
                } catch {
                    throw OutputFailure(output: path, reason: "\(error)")
                }
            },
            onDelay: { FileOpeningDelay.mark(path: path, meter: meter) },
            onOpened: { file in
                let actual = file.currentPath ?? path
                if actual != path {
                    logger.notice("FLV file exists; recording to a new name", metadata: ["path": "\(path)", "new": "\(actual)"])
                }
                logger.info("writing FLV file", metadata: ["path": "\(actual)"])
                meter?.enter(.writing)
            },
            onFailure: onFailure)
        if start == .stillOpening { FileOpeningDelay.log(path: path, logger: logger) }
    }

    package func write(_ packet: MediaPacket) {
        writer.push(packet)
    }

    /// Lock-free counters only: a hung write never blocks the status snapshot.
    package var statistics: OutputStatistics {
        OutputStatistics(
            queuedPackets: writer.queuedPackets, queuedMilliseconds: writer.queuedMilliseconds,
            queueBoundMilliseconds: writer.queueBoundMilliseconds, droppedFrames: writer.droppedFrames,
            sentFrames: writer.sentFrames.load(ordering: .relaxed))
    }

    package func finish(endTime: Int64, drainSeconds: Double) {
        defer { meter?.enter(.stopped) }
        // What is queued goes to the disk first (a local write is quick; a stuck disk is bounded).
        writer.stop(.finish(endTime: endTime), drainSeconds: drainSeconds)
    }

    package func discardIfUnused() {
        defer { meter?.enter(.stopped) }
        writer.stop(.discardIfUnused, drainSeconds: 0)
    }
}
