#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Media

extension EncoderSession {
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
                    confinement.assertOnOwner("opening a new encoder backend in recovery")
                    var settings = self.settings
                    settings.bitrateKbps = state.bitrateKbps
                    // The new backend opens at the rate in force: a rate still waiting is in it.
                    requestedBitrateKbps.store(0, ordering: .relaxed)
                    state.encoder = try backendOpener(settings, logger)
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
        SystemCall.sleep(nanoseconds: duration.clampedNanoseconds)
    }
}
