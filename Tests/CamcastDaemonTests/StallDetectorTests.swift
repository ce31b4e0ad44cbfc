import RTMP
import Testing
@testable import CamcastDaemon
@testable import Outputs

@Suite("Dead-peer detection by lack of progress")
struct StallDetectorTests {
    static let second: UInt64 = 1_000_000_000

    static func progress(acked: UInt64, unacked: UInt32 = 3, notSent: UInt32 = 0) -> TCPProgress {
        TCPProgress(bytesAcked: acked, unackedSegments: unacked, notSentBytes: notSent)
    }

    /// One sample; expects `stalled`.
    static func check(
        _ detector: inout StallDetector, _ progress: TCPProgress, at now: UInt64, _ stalled: Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let result = detector.observe(progress, at: now)
        #expect(result == stalled, "at \(Double(now) / 1e9) s", sourceLocation: sourceLocation)
    }

    @Test("acknowledged bytes that keep growing, however slowly, are progress")
    func slowProgressIsAlive() {
        var detector = StallDetector(timeoutNanoseconds: 2 * Self.second)
        for step in 0..<100 {
            Self.check(&detector, Self.progress(acked: UInt64(step)), at: UInt64(step) * Self.second, false)
        }
    }

    @Test("data waiting and nothing acknowledged: stalled exactly after the timeout")
    func stalledAfterTimeout() {
        var detector = StallDetector(timeoutNanoseconds: 2 * Self.second)
        Self.check(&detector, Self.progress(acked: 500), at: 10 * Self.second, false)
        Self.check(&detector, Self.progress(acked: 500, unacked: 0, notSent: 9000), at: 11 * Self.second, false)
        Self.check(&detector, Self.progress(acked: 500), at: 12 * Self.second - 1, false)
        Self.check(&detector, Self.progress(acked: 500), at: 12 * Self.second, true)
    }

    @Test("nothing waiting is idle, not stalled")
    func idleIsAlive() {
        var detector = StallDetector(timeoutNanoseconds: 2 * Self.second)
        for step in 0..<10 {
            Self.check(&detector, Self.progress(acked: 500, unacked: 0, notSent: 0), at: UInt64(step) * Self.second, false)
        }
        // Data appears: the clock starts now, not at the last ACK long ago.
        Self.check(&detector, Self.progress(acked: 500), at: 10 * Self.second, false)
        Self.check(&detector, Self.progress(acked: 500), at: 11 * Self.second, false)
        Self.check(&detector, Self.progress(acked: 500), at: 12 * Self.second, true)
    }

    @Test("reset: a new connection is judged on its own")
    func resetForgets() {
        var detector = StallDetector(timeoutNanoseconds: 2 * Self.second)
        Self.check(&detector, Self.progress(acked: 10), at: 0, false)
        detector.reset()
        Self.check(&detector, Self.progress(acked: 10), at: 5 * Self.second, false)
        Self.check(&detector, Self.progress(acked: 10), at: 7 * Self.second, true)
    }
}
