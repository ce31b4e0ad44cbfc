@testable import Encoder
import Logging
import Synchronization

extension EncoderSession {
    /// The next `encodeFailures` encode calls fail as if the library had (the backend in use is
    /// wrapped in one that fails first; recovery replaces it with one its opener makes).
    func injectFaults(encodeFailures: Int) {
        withState { state in
            if encodeFailures > 0, let encoder = state.encoder {
                state.encoder = FailingEncoderBackend(wrapping: encoder, failures: encodeFailures)
            }
        }
    }
}

/// Openings that fail, injected through the backend contract as a broken library would fail
/// them: a session made with `opener()` opens every backend through it, and after `failNext(n)`
/// the next n openings (a recovery's re-creations) throw before the library is asked.
final class FailingOpens: Sendable {
    private let remaining = Mutex(0)

    func failNext(_ count: Int) {
        remaining.withLock { $0 += count }
    }

    /// Opens with the codec's library unless a failure is due.
    func opener() -> EncoderSession.BackendOpener {
        { [self] (settings, logger) throws(EncoderError) in
            let fails = remaining.withLock { remaining -> Bool in
                guard remaining > 0 else { return false }
                remaining -= 1
                return true
            }
            if fails { throw EncoderError.openFailed("injected failure") }
            return try EncoderSession.openBackend(settings, logger: logger)
        }
    }
}

/// A backend that fails its first `failures` encodes, as a broken library would, then passes
/// everything to the real backend it wraps. Kept inside the session's lock like any backend.
final class FailingEncoderBackend: EncoderBackend {
    private let wrapped: any EncoderBackend
    private var failures: Int

    init(wrapping wrapped: any EncoderBackend, failures: Int) {
        self.wrapped = wrapped
        self.failures = failures
    }

    init(settings: EncoderSettings, logger: Logger) throws(EncoderError) {
        wrapped = try EncoderSession.openBackend(settings, logger: logger)
        failures = 0
    }

    func streamHeaders() throws(EncoderError) -> [[UInt8]] { try wrapped.streamHeaders() }

    func send(_ image: X264InputImage, pts: Int64, forceIDR: Bool) throws(EncoderError) -> EncoderSendStatus {
        if failures > 0 {
            failures -= 1
            throw .encodeFailed(status: -1)
        }
        return try wrapped.send(image, pts: pts, forceIDR: forceIDR)
    }

    func sendEndOfStream() throws(EncoderError) { try wrapped.sendEndOfStream() }

    func receive() throws(EncoderError) -> EncoderReceiveStatus { try wrapped.receive() }

    func reconfigure(bitrateKbps: Int) throws(EncoderError) { try wrapped.reconfigure(bitrateKbps: bitrateKbps) }
}
