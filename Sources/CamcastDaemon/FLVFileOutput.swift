import FLV
import Logging
import Synchronization

/// Writes the stream to an `.flv` file on the capture thread (local writes are short).
///
/// FLV timestamps are 32 bits of milliseconds. When the stream clock wraps (after 49.7 days),
/// the file is finished and a new one (a fresh time-stamped name) starts at the next keyframe,
/// so no file ever holds a timestamp that goes backwards.
///
/// A write error (a full disk) ends this output only: the file is closed where it stands and the
/// pipeline is told, which keeps the other outputs running (issue 14 #8).
final class FLVFileOutput: StreamOutput {
    private struct State {
        var writer: FLVFileWriter?
        var gate: KeyframeGate
        var failed = false
        var sentFrames = 0
        /// The last timestamp written: one smaller than it means the 32-bit clock wrapped.
        var lastTimestamp: UInt32?
    }

    let name: String
    private let path: String
    private let state: Mutex<State>
    private let logger: Logger
    private let onFailure: @Sendable (PipelineError) -> Void

    init(path: String, metadata: FLVTag, logger: Logger, onFailure: @escaping @Sendable (PipelineError) -> Void) {
        self.path = path
        name = path
        state = Mutex(State(gate: KeyframeGate(metadata: metadata)))
        self.logger = logger
        self.onFailure = onFailure
    }

    func open() throws(PipelineError) {
        let path = self.path
        let opened: Result<String, PipelineError> = state.withLock { state in
            do {
                let writer = try FLVFileWriter(path: FLVFileOutput.freshPath(for: path))
                state.writer = writer
                return .success(writer.path)
            } catch {
                return .failure(.outputFailed(output: path, reason: "\(error)"))
            }
        }
        let actual = try opened.get()
        if actual != path {
            logger.notice("FLV file exists; recording to a new name", metadata: ["path": "\(path)", "new": "\(actual)"])
        }
        logger.info("writing FLV file", metadata: ["path": "\(actual)"])
    }

    func write(_ packet: StreamPacket) {
        let path = self.path
        let logger = self.logger
        let failure: PipelineError? = state.withLock { state in
            guard !state.failed, state.writer != nil else { return nil }
            do {
                if let last = state.lastTimestamp, packet.tag.timestamp < last {
                    try Self.roll(&state, path: path, logger: logger)
                }
                guard let writer = state.writer else { return nil }
                let tags = state.gate.admit(packet)
                for tag in tags {
                    try writer.write(tag)
                }
                state.lastTimestamp = packet.tag.timestamp
                if !tags.isEmpty && packet.kind != .sequenceHeader { state.sentFrames += 1 }
                return nil
            } catch {
                state.failed = true
                return .outputFailed(output: name, reason: "\(error)")
            }
        }
        if let failure { onFailure(failure) }
    }

    /// Ends the file at the wrap and opens the next; the new one starts at the next keyframe.
    private static func roll(_ state: inout State, path: String, logger: Logger) throws {
        if let writer = state.writer {
            if state.gate.isStreaming, let last = state.lastTimestamp {
                try writer.write(FLVMuxer().endOfSequenceTag(timestamp: last))
            }
            try writer.close()
            state.writer = nil
        }
        let next = try FLVFileWriter(path: freshPath(for: path))
        state.writer = next
        state.gate.restart()
        state.lastTimestamp = nil
        logger.notice("stream clock wrapped at 2^32 ms; recording continues in a new file", metadata: ["path": "\(next.path)"])
    }

    var statistics: OutputStatistics {
        OutputStatistics(sentFrames: state.withLock { $0.sentFrames })
    }

    func finish(endTimestamp: UInt32, drainSeconds: Double) {
        let problem: String? = state.withLock { state in
            guard let writer = state.writer else { return nil }
            state.writer = nil
            do {
                if state.gate.isStreaming && !state.failed {
                    try writer.write(FLVMuxer().endOfSequenceTag(timestamp: endTimestamp))
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
}
