import FLV
import Logging
import Media
import Synchronization
import Telemetry

/// Writes the stream to an `.flv` file from a thread of its own (`OutputWorker`), so a slow or
/// stuck disk never holds up the encoder or the other outputs.
///
/// FLV timestamps are 32 bits of milliseconds. When the stream clock reaches the next multiple
/// of 2^32 ms (49.7 days), the file is finished and a new one (a fresh time-stamped name) starts
/// at the next keyframe, so no file ever holds a timestamp that goes backwards.
///
/// A write error (a full disk) ends this output only: the file is closed where it stands and the
/// pipeline is told, which keeps the other outputs running (issue 14 #8).
package final class FLVFileOutput: StreamOutput {
    private struct State {
        var writer: FLVFileWriter?
        var muxer: FLVPacketMuxer
        var failed = false
        var sentFrames = 0
        /// Which 2^32 ms span of stream time the current file holds.
        var epoch: Int64?
        var lastTime: Int64 = 0
    }

    package let name: String
    private let path: String
    /// The file header's TypeFlagsAudio.
    private let hasAudio: Bool
    private let state: Mutex<State>
    private let logger: Logger
    private let onFailure: @Sendable (OutputFailure) -> Void
    /// Bytes written, for the operator's view.
    private let meter: OutputMeter?
    private let worker: OutputWorker

    /// `queueMilliseconds` of media may wait for the disk before frames are dropped up to a
    /// keyframe (which `requestKeyframe` asks the encoder for).
    package init(
        path: String, metadata: FLVTag, hasAudio: Bool = false, logger: Logger,
        queueMilliseconds: Int64 = OutputWorker.fileQueueMilliseconds,
        requestKeyframe: @escaping @Sendable () -> Void = {}, onFailure: @escaping @Sendable (OutputFailure) -> Void, meter: OutputMeter? = nil
    ) {
        self.path = path
        self.hasAudio = hasAudio
        name = path
        state = Mutex(State(muxer: FLVPacketMuxer(metadata: metadata)))
        self.logger = logger
        self.onFailure = onFailure
        self.meter = meter
        worker = OutputWorker(maxSpanMilliseconds: queueMilliseconds, requestKeyframe: requestKeyframe)
    }

    package func open() throws(OutputFailure) {
        let path = self.path
        let opened: Result<String, OutputFailure> = state.withLock { state in
            do {
                let writer = try FLVFileWriter(path: FLVFileOutput.freshPath(for: path), header: FLVHeader(hasAudio: hasAudio))
                state.writer = writer
                return .success(writer.path)
            } catch {
                return .failure(OutputFailure(output: path, reason: "\(error)"))
            }
        }
        let actual = try opened.get()
        do {
            try worker.start { [self] packet in writeNow(packet) }
        } catch {
            state.withLock { $0.writer = nil }
            throw OutputFailure(output: path, reason: error.description)
        }
        if actual != path {
            logger.notice("FLV file exists; recording to a new name", metadata: ["path": "\(path)", "new": "\(actual)"])
        }
        logger.info("writing FLV file", metadata: ["path": "\(actual)"])
        meter?.enter(.writing)
    }

    package func write(_ packet: MediaPacket) {
        worker.push(packet)
    }

    /// On the worker thread.
    private func writeNow(_ packet: MediaPacket) {
        let path = self.path
        let logger = self.logger
        let failure: OutputFailure? = state.withLock { state in
            guard !state.failed, state.writer != nil else { return nil }
            do {
                let epoch = packet.dts >> 32
                if let current = state.epoch, current != epoch {
                    try Self.roll(&state, path: path, hasAudio: hasAudio, logger: logger)
                }
                guard let writer = state.writer else { return nil }
                let tags = try state.muxer.tags(for: packet)
                for tag in tags {
                    try writer.write(tag)
                    meter?.sentBytes.add(Int(tag.sizeWithoutTrailer) + 4, ordering: .relaxed)
                }
                if !tags.isEmpty {
                    state.epoch = epoch
                    state.lastTime = max(state.lastTime, packet.dts)
                    if packet.mediaKind == .video { state.sentFrames += 1 }
                }
                return nil
            } catch {
                state.failed = true
                return OutputFailure(output: name, reason: "\(error)")
            }
        }
        if let failure { onFailure(failure) }
    }

    /// Ends the file at the wrap and opens the next; the new one starts at the next keyframe.
    private static func roll(_ state: inout State, path: String, hasAudio: Bool, logger: Logger) throws {
        if let writer = state.writer {
            if state.muxer.isStreaming {
                try writer.write(state.muxer.endOfSequence(at: state.lastTime))
            }
            try writer.close()
            state.writer = nil
        }
        let next = try FLVFileWriter(path: freshPath(for: path), header: FLVHeader(hasAudio: hasAudio))
        state.writer = next
        state.muxer.restart()
        state.epoch = nil
        logger.notice("stream clock wrapped at 2^32 ms; recording continues in a new file", metadata: ["path": "\(next.path)"])
    }

    package var statistics: OutputStatistics {
        OutputStatistics(
            queuedPackets: worker.queue.count, droppedFrames: worker.queue.droppedFrames.load(ordering: .relaxed),
            sentFrames: state.withLock { $0.sentFrames }, queuedMilliseconds: Int(worker.queue.spanMilliseconds))
    }

    package func finish(endTime: Int64, drainSeconds: Double) {
        defer { meter?.enter(.stopped) }
        // What is queued goes to the disk first (a local write is quick; a stuck disk is bounded).
        if !worker.stop(drainSeconds: drainSeconds) {
            logger.error("FLV writes did not finish in time; closing the file where it stands", metadata: ["path": "\(path)"])
        }
        let problem: String? = state.withLock { state in
            guard let writer = state.writer else { return nil }
            state.writer = nil
            do {
                if state.muxer.isStreaming && !state.failed {
                    // Not past the file's own span: a file never wraps.
                    let end = state.epoch.map { min(endTime, ($0 + 1) << 32 - 1) } ?? endTime
                    try writer.write(state.muxer.endOfSequence(at: max(end, state.lastTime)))
                }
                try writer.close()
                return nil
            } catch {
                return "\(error)"
            }
        }
        if let problem {
            logger.error("could not finish FLV file", metadata: ["path": "\(path)", "error": "\(problem)"])
        }
    }

    package func discardIfUnused() {
        let unused = state.withLock { state -> String? in
            guard let writer = state.writer, !state.muxer.isStreaming else { return nil }
            state.writer = nil
            try? writer.close()
            return writer.path
        }
        guard let unused else {
            finish(endTime: 0, drainSeconds: 0)
            return
        }
        worker.stop(drainSeconds: 0)
        UnusedFile.remove(unused)
        logger.info("removed the FLV file of a run that did not start", metadata: ["path": "\(unused)"])
    }
}
