/// The sequence of waits between reconnect attempts that a `ReconnectPolicy` describes.
///
/// Exponential with a cap, and jittered downwards only, so a wait is never longer than the
/// policy's nominal value (the first retry stays within `initialDelaySeconds`).
struct Backoff {
    let policy: ReconnectPolicy
    /// The nominal (unjittered) wait that `nextDelay` returns next.
    private(set) var nominalSeconds: Double

    init(policy: ReconnectPolicy) {
        self.policy = policy
        nominalSeconds = Self.clamped(policy.initialDelaySeconds, policy)
    }

    /// The wait before the next attempt, in seconds; advances the sequence.
    mutating func nextDelay<G: RandomNumberGenerator>(using generator: inout G) -> Double {
        let nominal = nominalSeconds
        nominalSeconds = Self.clamped(nominal * max(1, policy.factor), policy)
        let jitter = min(max(policy.jitter, 0), 0.99)
        guard jitter > 0 else { return nominal }
        return nominal * (1 - jitter * Double.random(in: 0..<1, using: &generator))
    }

    mutating func nextDelay() -> Double {
        var generator = SystemRandomNumberGenerator()
        return nextDelay(using: &generator)
    }

    /// Back to the first, shortest wait (after a healthy connection).
    mutating func reset() {
        nominalSeconds = Self.clamped(policy.initialDelaySeconds, policy)
    }

    private static func clamped(_ seconds: Double, _ policy: ReconnectPolicy) -> Double {
        min(max(seconds, 0), max(policy.maxDelaySeconds, 0))
    }
}
