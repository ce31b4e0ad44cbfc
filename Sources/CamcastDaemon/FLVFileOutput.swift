import FLV
import Logging
import Synchronization

/// Writes the stream to an `.flv` file on the capture thread (local writes are short).
final class FLVFileOutput: StreamOutput {
    private struct State {
        var writer: FLVFileWriter?
        var gate: KeyframeGate
        var failed = false
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
        let opened: Result<Void, PipelineError> = state.withLock { state in
            do {
                state.writer = try FLVFileWriter(path: path)
                return .success(())
            } catch {
                return .failure(.outputUnavailable(output: path, reason: "\(error)"))
            }
        }
        try opened.get()
        logger.info("writing FLV file", metadata: ["path": "\(path)"])
    }

    func write(_ packet: StreamPacket) {
        let failure: PipelineError? = state.withLock { state in
            guard !state.failed, let writer = state.writer else { return nil }
            do {
                for tag in state.gate.admit(packet) {
                    try writer.write(tag)
                }
                return nil
            } catch {
                state.failed = true
                return .outputFailed(output: name, reason: "\(error)")
            }
        }
        if let failure { onFailure(failure) }
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
