#if canImport(Glibc)
import Glibc
#endif
import Encoder
import Logging
import Media
import Synchronization

extension PipelineStages {
    /// Whether a codec change is replacing the session.
    enum EncoderChange {
        case none
        case replacing
    }

    /// Encodes `frame` with the current session. A frame that meets a session a codec change has
    /// just flushed (`.closed`) waits for its successor and goes there, so the change costs no
    /// frame and no error; any other failure is the caller's.
    func encode(_ frame: VideoFrame) throws(EncoderError) {
        let session = encoder
        do {
            try session.encode(frame)
        } catch {
            guard case .closed = error, waitForEncoderChange(from: session) else { throw error }
            try encoder.encode(frame)
        }
    }

    /// True once a change under way has replaced `session`; false at once when none is.
    private func waitForEncoderChange(from session: EncoderSession) -> Bool {
        // A change opens the new session before it flushes the old one, so this waits for a
        // flush and a swap: milliseconds. The bound only guards against a change that never ends.
        for _ in 0..<2_000 {
            let (changing, current) = (encoderChange.withLock { $0 }, encoder)
            if current !== session { return true }
            guard case .replacing = changing else { return false }
            usleep(1_000)
        }
        return false
    }

    /// Replaces the session with one for `settings` (a new codec): the new session is opened
    /// first (if that fails, the old one runs on), the old one is flushed, so its last pictures
    /// reach the outputs before the new one's first, then the new one takes the frames, starting
    /// with an IDR. The outputs see the decoder configuration change on that IDR.
    func replaceEncoder(with settings: EncoderSettings, logger: Logger) throws(EncoderError) {
        let replacement = try EncoderSession(settings: settings, logger: logger, output: encoderOutput)
        encoderChange.withLock { $0 = .replacing }
        defer { encoderChange.withLock { $0 = .none } }
        let old = encoder
        do {
            try old.flush()
        } catch {
            logger.warning("encoder flush before the codec change failed", metadata: ["error": "\(error)"])
        }
        encoderSlot.replace(with: replacement)
        encoderWantsI420.store(settings.codec.readsPlanarOnly, ordering: .relaxed)
        old.close()
    }
}
