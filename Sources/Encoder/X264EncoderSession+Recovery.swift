#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Media

extension X264EncoderSession {
    /// Encodes with `encoder`; if x264 fails, re-creates the encoder per the recovery policy and
    /// encodes the same image on the new one (which starts with an IDR anyway).
    func encodeRecovering(
        _ image: X264InputImage, pts: Int64, forceIDR: Bool, encoder: X264Encoder, state: inout State
    ) throws(EncoderError) -> X264Encoder.Output? {
        do throws(EncoderError) {
            if state.injectedFaults.encodeFailures > 0 {
                state.injectedFaults.encodeFailures -= 1
                throw EncoderError.encodeFailed(status: -1)
            }
            return try encoder.encode(image, pts: pts, forceIDR: forceIDR)
        } catch {
            switch error {
            case .encodeFailed, .malformedOutput: break
            default: throw error
            }
            logger.error("encode failed; re-creating the encoder", metadata: ["error": "\(error)"])
            let fresh = try recreateEncoder(state: &state)
            return try fresh.encode(image, pts: pts, forceIDR: true)
        }
    }

    /// Drops the failed encoder and opens a new one with the current bitrate, up to
    /// `recovery.attempts` times, `recovery.delay` apart. Closes the session if every try fails.
    private func recreateEncoder(state: inout State) throws(EncoderError) -> X264Encoder {
        state.encoder = nil
        state.inFlight.removeAll()  // the frames the failed encoder held are lost with it
        var settings = self.settings
        settings.bitrateKbps = state.bitrateKbps
        var lastError = EncoderError.closed
        for attempt in 1...max(1, recovery.attempts) where recovery.attempts > 0 {
            if attempt > 1 { Self.sleep(recovery.delay) }
            do throws(EncoderError) {
                if state.injectedFaults.openFailures > 0 {
                    state.injectedFaults.openFailures -= 1
                    throw EncoderError.openFailed("injected failure")
                }
                let encoder = try X264Encoder(settings: settings, logger: logger)
                state.encoder = encoder
                logger.warning("encoder re-created", metadata: ["attempt": "\(attempt)"])
                return encoder
            } catch {
                lastError = error
                logger.error(
                    "encoder re-creation failed",
                    metadata: ["attempt": "\(attempt)", "of": "\(recovery.attempts)", "error": "\(error)"])
            }
        }
        logger.critical("encoder could not be re-created; session closed", metadata: ["error": "\(lastError)"])
        throw lastError
    }

    private static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || attoseconds > 0 else { return }
        SystemCall.sleep(nanoseconds: UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000))
    }
}

extension X264EncoderSession {
    /// Test seam: the next `encodeFailures` encode calls fail as if x264 had, and the next
    /// `openFailures` encoder re-creations fail.
    func injectFaults(encodeFailures: Int = 0, openFailures: Int = 0) {
        withState { state in
            state.injectedFaults.encodeFailures += encodeFailures
            state.injectedFaults.openFailures += openFailures
        }
    }
}
