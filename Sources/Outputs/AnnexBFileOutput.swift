import Encoder
import Logging
import Media
import Synchronization
import Telemetry

/// Writes the stream to a raw `.h264` or `.h265` file (Annex-B), optionally only its first `maxFrames`
/// pictures, from a thread of its own (`OutputWorker`). Like every output it muxes the
/// codec-neutral packets itself and fails alone (issue 14 #8).
package final class AnnexBFileOutput: StreamOutput {
    package let name: String
    private let path: String
    private let frameLimit: Int?
    private let writer = Mutex<AnnexBWriter?>(nil)
    private let failed = Atomic<Bool>(false)
    private let logger: Logger
    private let onFailure: @Sendable (OutputFailure) -> Void
    /// Bytes written, for the operator's view.
    private let meter: OutputMeter?
    private let worker: OutputWorker

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
        worker = OutputWorker(maxSpanMilliseconds: OutputWorker.fileQueueMilliseconds, requestKeyframe: requestKeyframe)
    }

    package func open() throws(OutputFailure) {
        do {
            let opened = try AnnexBWriter(path: path, frameLimit: frameLimit)
            writer.withLock { $0 = opened }
            try worker.start { [self] packet in writeNow(packet) }
        } catch {
            writer.withLock { $0 = nil }
            throw OutputFailure(output: path, reason: "\(error)")
        }
        logger.info("writing Annex-B file", metadata: ["path": "\(path)"])
        meter?.enter(.writing)
    }

    package func write(_ packet: MediaPacket) {
        // An H.264 elementary stream has no place for sound.
        guard packet.mediaKind == .video else { return }
        worker.push(packet)
    }

    /// On the worker thread.
    private func writeNow(_ packet: MediaPacket) {
        guard !failed.load(ordering: .relaxed), let writer = writer.withLock({ $0 }) else { return }
        do {
            try writer.write(packet)
            meter?.sentBytes.add(packet.units.reduce(0) { $0 + 4 + $1.count }, ordering: .relaxed)
        } catch {
            failed.store(true, ordering: .relaxed)
            writer.close()
            onFailure(OutputFailure(output: path, reason: "\(error)"))
        }
    }

    package func finish(endTime: Int64, drainSeconds: Double) {
        defer { meter?.enter(.stopped) }
        worker.stop(drainSeconds: drainSeconds)
        writer.withLock { $0 }?.close()
    }

    package var statistics: OutputStatistics {
        guard let writer = writer.withLock({ $0 }) else { return OutputStatistics() }
        return OutputStatistics(
            queuedPackets: worker.queue.count, droppedFrames: worker.queue.droppedFrames.load(ordering: .relaxed),
            sentFrames: writer.framesWritten, isComplete: writer.isFull,
            queuedMilliseconds: Int(worker.queue.spanMilliseconds))
    }

    package func discardIfUnused() {
        worker.stop(drainSeconds: 0)
        guard let opened = writer.withLock({ $0 }) else { return }
        opened.close()
        if opened.framesWritten == 0 { UnusedFile.remove(opened.path) }
    }
}
