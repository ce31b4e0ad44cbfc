/// How an RTMP output retries after a failed or lost connection (config `reconnect:`).
///
/// The waits grow as `initialDelaySeconds × factor^n` up to `maxDelaySeconds`, each shortened at
/// random by up to `jitter` of itself so that many cameras that lost the same server do not all
/// return in the same instant. With the defaults the first retry comes within 1 s and the waits
/// still grow strictly (1.7 × 0.75 > 1) until the cap. A connection that stayed up for
/// `healthyAfterSeconds` resets the waits; one that drops sooner continues where they were, so a
/// server that accepts and then drops at once is not hammered.
public struct ReconnectPolicy: Sendable, Hashable {
    /// False: the first failure — at start or while streaming — ends the run with an error.
    public var isEnabled: Bool = true
    public var initialDelaySeconds: Double = 1
    public var factor: Double = 1.7
    public var maxDelaySeconds: Double = 30
    /// Failed attempts in a row before the output gives up and the run fails; 0 retries forever.
    public var maxAttempts: Int = 0
    public var healthyAfterSeconds: Double = 30
    /// Fraction (0 ..< 1) by which each wait is shortened at random.
    public var jitter: Double = 0.25

    public init(
        isEnabled: Bool = true, initialDelaySeconds: Double = 1, factor: Double = 1.7, maxDelaySeconds: Double = 30,
        maxAttempts: Int = 0, healthyAfterSeconds: Double = 30, jitter: Double = 0.25
    ) {
        self.isEnabled = isEnabled
        self.initialDelaySeconds = initialDelaySeconds
        self.factor = factor
        self.maxDelaySeconds = maxDelaySeconds
        self.maxAttempts = maxAttempts
        self.healthyAfterSeconds = healthyAfterSeconds
        self.jitter = jitter
    }

    /// Never retries: every failure is fatal (`--no-reconnect`).
    public static let disabled = ReconnectPolicy(isEnabled: false)

    /// Whether `failures` failed attempts in a row exhaust the policy.
    func givesUp(after failures: Int) -> Bool {
        !isEnabled || (maxAttempts > 0 && failures >= maxAttempts)
    }
}
