import Encoder
import Logging

extension PipelineStages {
    /// Replaces the session with `replacement` (a new codec, opened by the caller: if that failed,
    /// the old one runs on). The switch happens on the encoder stage's thread, between two
    /// pictures: the old session is flushed there, so its last pictures reach the outputs before
    /// the new one's first, then the new one takes the pictures, starting with an IDR. The outputs
    /// see the decoder configuration change on that IDR. Returns once the new session is in force.
    func replaceEncoder(with replacement: EncoderSession) {
        encoderStage.replace(with: replacement)
        encoderWantsI420.store(replacement.settings.codec.readsPlanarOnly, ordering: .relaxed)
    }
}
