#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Media

extension EncoderSession {
    /// Encodes with `encoder`, failing instead when a test scheduled an encode failure.
    func encodeInjecting(
        _ image: X264InputImage, pts: Int64, forceIDR: Bool, encoder: any EncoderBackend, state: inout State
    ) throws(EncoderError) -> EncoderBackendOutput? {
        if state.injectedFaults.encodeFailures > 0 {
            state.injectedFaults.encodeFailures -= 1
            throw EncoderError.encodeFailed(status: -1)
        }
        return try encoder.encodePicture(image, pts: pts, forceIDR: forceIDR)
    }

    /// Opens a new encoder with the current bitrate after `error`, up to `recovery.attempts` times,
    /// `recovery.delay` apart. The pauses are taken WITHOUT the session lock, so keyframe requests,
    /// reconfiguration and `close` go through at once while recovery waits. Throws the last error,
    /// with the session closed, if every try fails (or `close`/`flush` came in between).
    func recreateEncoder(after error: EncoderError) throws(EncoderError) {
        logger.error("encode failed; re-creating the encoder", metadata: ["error": "\(error)"])
        var lastError = EncoderError.closed
        for attempt in 1...max(1, recovery.attempts) where recovery.attempts > 0 {
            if attempt > 1 { Self.sleep(recovery.delay) }
            let opened = withState { state -> Result<Void, EncoderError> in
                guard !state.isShutDown else { return .failure(.closed) }
                do throws(EncoderError) {
                    if state.injectedFaults.openFailures > 0 {
                        state.injectedFaults.openFailures -= 1
                        throw EncoderError.openFailed("injected failure")
                    }
                    var settings = self.settings
                    settings.bitrateKbps = state.bitrateKbps
                    state.encoder = try Self.openBackend(settings, logger: logger)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            switch opened {
            case .success:
                logger.warning("encoder re-created", metadata: ["attempt": "\(attempt)"])
                return
            case .failure(.closed):
                throw .closed
            case .failure(let error):
                lastError = error
                logger.error(
                    "encoder re-creation failed",
                    metadata: ["attempt": "\(attempt)", "of": "\(recovery.attempts)", "error": "\(error)"])
            }
        }
        withState { $0.isShutDown = true }
        logger.critical("encoder could not be re-created; session closed", metadata: ["error": "\(lastError)"])
        throw lastError
    }

    private static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || attoseconds > 0 else { return }
        SystemCall.sleep(nanoseconds: UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000))
    }
}

extension EncoderSession {
    /// Test seam: the next `encodeFailures` encode calls fail as if the library had, and the next
    /// `openFailures` encoder re-creations fail.
    func injectFaults(encodeFailures: Int = 0, openFailures: Int = 0) {
        withState { state in
            state.injectedFaults.encodeFailures += encodeFailures
            state.injectedFaults.openFailures += openFailures
        }
    }
}
