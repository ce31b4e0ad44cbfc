import Testing
@testable import CamcastDaemon
@testable import Outputs
import TestSupport
import RTMP

/// Issue 14 #1: which waits follow which failures, and a flapping server simulated on a clock.
@Suite("Reconnect schedule")
struct ReconnectScheduleTests {
    @Test func cheapFailuresNeverWaitLongerThanTheCeiling() {
        var schedule = ReconnectSchedule(policy: ReconnectPolicy())
        var generator = SplitMix64(seed: 1)
        let waits = (0..<50).map { _ in schedule.delay(after: .unreachable, using: &generator) }
        #expect(waits.allSatisfy { $0 > 0 && $0 <= ReconnectSchedule.cheapCeilingSeconds })
        #expect(waits[0] <= 1)
        // Jittered: many cameras do not come back in the same instant.
        #expect(Set(waits).count > 40)
    }

    @Test func refusedPublishesBackOffToThePolicyMaximum() {
        var schedule = ReconnectSchedule(policy: ReconnectPolicy(jitter: 0))
        var generator = SplitMix64(seed: 2)
        let waits = (0..<10).map { _ in schedule.delay(after: .refused, using: &generator) }
        #expect(waits[0] == 1)
        #expect(waits[1] == 1.7)
        #expect(waits.last == 30)
    }

    /// A server that accepts and drops at once is backed off like a refusal, even though every
    /// publish succeeded.
    @Test func aServerThatDropsAtOnceIsNotHammered() {
        var schedule = ReconnectSchedule(policy: ReconnectPolicy(jitter: 0))
        var generator = SplitMix64(seed: 3)
        var waits: [Double] = []
        for _ in 0..<8 {
            schedule.published()
            waits.append(schedule.delay(after: .lost(afterSeconds: 0.1), using: &generator))
        }
        #expect(waits == waits.sorted())
        #expect(waits.last! > 10)
    }

    /// A connection lost after it was up a while is retried at once, and the cheap waits start
    /// over after every publish, whatever came before.
    @Test func aLostConnectionStartsFromTheFirstWait() {
        var schedule = ReconnectSchedule(policy: ReconnectPolicy(jitter: 0))
        var generator = SplitMix64(seed: 4)
        for _ in 0..<10 { _ = schedule.delay(after: .unreachable, using: &generator) }
        for _ in 0..<10 { _ = schedule.delay(after: .refused, using: &generator) }
        schedule.published()
        #expect(schedule.delay(after: .lost(afterSeconds: 4), using: &generator) == 1)
        #expect(schedule.delay(after: .unreachable, using: &generator) == 1.7)
        #expect(schedule.delay(after: .unreachable, using: &generator) == 2)
    }

    /// The flap: down 3 s, up 4 s, five times, then down 40 s. With a 0.2 s attempt
    /// (refused fast, or connect + publish), every return is published to within 2.5 s.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func aFlappingServerIsPublishedToWithin2Point5SecondsOfEachReturn(seed: UInt64) {
        var windows: [(down: Double, up: Double)] = []
        var t = 0.0
        for _ in 0..<5 {
            windows.append((t, t + 3))
            t += 7
        }
        windows.append((t, t + 40))
        let end = t + 40 + 10
        func serverUp(_ time: Double) -> Bool { !windows.contains { time >= $0.down && time < $0.up } }
        var schedule = ReconnectSchedule(policy: ReconnectPolicy())
        var generator = SplitMix64(seed: seed)
        let attemptSeconds = 0.2
        var now = 0.0
        var publishedAt: [Double] = []
        while now < end {
            if serverUp(now) {
                now += attemptSeconds
                publishedAt.append(now)
                schedule.published()
                // Up until the next window starts.
                guard let next = windows.first(where: { $0.down >= now }) else { break }
                let upFor = next.down - now
                now = next.down
                now += schedule.delay(after: .lost(afterSeconds: upFor), using: &generator)
            } else {
                now += attemptSeconds
                now += schedule.delay(after: .unreachable, using: &generator)
            }
        }
        for window in windows {
            let publish = publishedAt.first { $0 >= window.up }
            #expect(publish != nil)
            if let publish { #expect(publish - window.up <= 2.5, "returned at \(window.up), published at \(publish)") }
        }
    }

    @Test func errorsFallIntoTheirClasses() {
        #expect(ReconnectSchedule.failure(for: .cheap) == .unreachable)
        #expect(ReconnectSchedule.failure(for: .expensive) == .refused)
    }

    /// "Already publishing" soon after Camcast cut a dead connection is the server's stale hold on
    /// the name: retried on the cheap waits for the window, then backed off like any refusal.
    @Test func aNameHeldAfterOurOwnCutIsCheapForTheWindowOnly() {
        let window = ReconnectSchedule.stalePublishWindowSeconds
        #expect(window == 120)
        #expect(ReconnectSchedule.failure(for: .nameHeld, secondsSinceOwnCut: 0) == .unreachable)
        #expect(ReconnectSchedule.failure(for: .nameHeld, secondsSinceOwnCut: window - 1) == .unreachable)
        #expect(ReconnectSchedule.failure(for: .nameHeld, secondsSinceOwnCut: window) == .refused)
        #expect(ReconnectSchedule.failure(for: .nameHeld, secondsSinceOwnCut: nil) == .refused)
        #expect(RTMPError(kind: .alreadyPublishing(reason: "x"), url: "rtmp://h/a/****").failureKind == .nameHeld)
        #expect(RTMPError(kind: .sendTimeout, url: "rtmp://h/a/****").isDeadPeerCut)
        #expect(!RTMPError(kind: .serverClosed, url: "rtmp://h/a/****").isDeadPeerCut)

        // Retried every 1.5–2 s through the window, where the full backoff would be at 30 s.
        var schedule = ReconnectSchedule(policy: ReconnectPolicy())
        var generator = SplitMix64(seed: 4)
        var elapsed = 0.0
        var longest = 0.0
        while elapsed < window - 5 {
            let delay = schedule.delay(after: ReconnectSchedule.failure(for: .nameHeld, secondsSinceOwnCut: elapsed), using: &generator)
            longest = max(longest, delay)
            elapsed += delay
        }
        #expect(longest <= ReconnectSchedule.cheapCeilingSeconds)
    }
}
