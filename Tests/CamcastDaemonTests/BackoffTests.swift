import TestSupport
import Testing
@testable import CamcastDaemon
@testable import Outputs

@Suite("Reconnect backoff")
struct BackoffTests {
    @Test("without jitter: initial, ×factor each time, capped")
    func nominalSequence() {
        var backoff = Backoff(policy: ReconnectPolicy(initialDelaySeconds: 1, factor: 2, maxDelaySeconds: 10, jitter: 0))
        let delays = (0..<7).map { _ in backoff.nextDelay() }
        #expect(delays == [1, 2, 4, 8, 10, 10, 10])
    }

    @Test("defaults: first retry within 1 s, strictly growing until the 30 s cap, never above it",
          arguments: 0..<200 as Range<UInt64>)
    func jitteredDefaults(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var backoff = Backoff(policy: ReconnectPolicy())
        let delays = (0..<15).map { _ in backoff.nextDelay(using: &generator) }
        #expect(delays[0] > 0 && delays[0] <= 1)
        #expect(delays.allSatisfy { $0 <= 30 })
        // Until the nominal wait reaches the cap, each wait is longer than the one before.
        let growing = delays.prefix(while: { $0 < 30 * 0.75 })
        #expect(zip(growing, growing.dropFirst()).allSatisfy { $0 < $1 }, "\(delays)")
        #expect(delays.last! >= 30 * 0.75)
    }

    @Test("jitter stays within its bounds: nominal × (1 − jitter) … nominal", arguments: [0.1, 0.25, 0.5])
    func jitterBounds(jitter: Double) {
        var generator = SplitMix64(seed: 42)
        let policy = ReconnectPolicy(initialDelaySeconds: 0.5, factor: 1.5, maxDelaySeconds: 8, jitter: jitter)
        var backoff = Backoff(policy: policy)
        var nominal = 0.5
        var seen: Set<Double> = []
        for _ in 0..<40 {
            let delay = backoff.nextDelay(using: &generator)
            #expect(delay <= nominal && delay >= nominal * (1 - jitter), "\(delay) vs nominal \(nominal)")
            seen.insert(delay)
            nominal = min(nominal * 1.5, 8)
        }
        #expect(seen.count > 30, "jitter must vary the waits")
    }

    @Test("reset goes back to the first wait")
    func reset() {
        var backoff = Backoff(policy: ReconnectPolicy(initialDelaySeconds: 1, factor: 3, maxDelaySeconds: 30, jitter: 0))
        _ = (0..<4).map { _ in backoff.nextDelay() }
        #expect(backoff.nextDelay() == 30)
        backoff.reset()
        #expect(backoff.nextDelay() == 1)
        #expect(backoff.nextDelay() == 3)
    }

    @Test("when the policy gives up", arguments: [
        (ReconnectPolicy(), 1_000_000, false),
        (ReconnectPolicy(maxAttempts: 3), 2, false),
        (ReconnectPolicy(maxAttempts: 3), 3, true),
        (ReconnectPolicy.disabled, 1, true),
    ])
    func givesUp(policy: ReconnectPolicy, failures: Int, expected: Bool) {
        #expect(policy.givesUp(after: failures) == expected)
    }

    @Test("the logged wait reads as seconds with two decimals", arguments: [
        (0.854, "0.85s"), (1.0, "1.00s"), (12.345, "12.35s"), (0.05, "0.05s"),
    ])
    func formattedSeconds(value: Double, text: String) {
        #expect(LogSeconds.text(value) == text)
    }
}
