/// How a session re-creates its x264 encoder after an encode error: a bounded number of tries,
/// a fixed pause apart (seed 004: 3 tries, 1 s apart).
public struct EncoderRecoveryPolicy: Sendable, Hashable {
    /// Encoder creations to try before the session gives up and closes; 0 disables recovery.
    public var attempts: Int
    /// Pause before each try after the first.
    public var delay: Duration

    public init(attempts: Int = 3, delay: Duration = .seconds(1)) {
        self.attempts = attempts
        self.delay = delay
    }

    public static let standard = EncoderRecoveryPolicy()
}
