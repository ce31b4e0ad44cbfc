import Encoder
import Logging

extension Pipeline {
    /// Opens a session with `settings` (at start, and for a codec switch on reload); blocks while
    /// the library starts, so off the cooperative pool. Its pictures go to `output`.
    func openEncoderSession(_ settings: EncoderSettings, output: @escaping @Sendable (EncodedPicture) -> Void) throws -> EncoderSession {
        #if DEBUG
        if let opener = control.debugSessionOpener.withLock({ $0 }) { return try opener(settings, logger, output) }
        #endif
        return try EncoderSession(settings: settings, logger: logger, output: output)
    }
}
