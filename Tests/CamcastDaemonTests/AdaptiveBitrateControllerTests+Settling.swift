import Testing
@testable import Outputs

/// The controller's settling, remembering and probing, over scripted and simulated links (see
/// `AdaptiveBitrateControllerTests` for the script).
extension AdaptiveBitrateControllerTests {
    /// Issue 30's sawtooth: 1200 kbit/s configured, a 400 kbit/s link for 60 s whose TCP loses a
    /// second now and then (200 kbit/s at the start and every 15 s), then free. OBS's rule (the
    /// old one, run on this same simulation) lowered to the floor on the first bad second, climbed
    /// past the link while the queue drained and sawed 300 → 420 → 540 → 400 → 300: 13 changes
    /// from 10 to 60 s, and reached 1200 only 28 s after the link freed.
    @Test func aSteadySlowLinkGetsOneSettledBitrateAndTheFreedLinkItsCeilingBack() {
        var run = Run(
            controller: AdaptiveBitrateController(ceilingKbps: 1200, floorKbps: 300),
            links: [ScriptedLink(id: 1, name: Self.name, kbps: 0)])
        run.simulate(seconds: 95) { now in
            let second = now / Self.second
            return second >= 60 ? 20_000 : second % 15 == 0 ? 200 : 400
        }
        let log = run.changes.map { "\(Double($0.at) / 1e9): \($0.change)" }
        let settled = run.changes.filter { (10 * Self.second...60 * Self.second).contains($0.at) }
        #expect(settled.count <= 1, "\(log)")
        // After 10 s the bitrate stays within 60–100 % of the link.
        let atTen = run.changes.last { $0.at < 10 * Self.second }.map { Self.target(of: $0.change) } ?? 1200
        for kbps in [atTen] + settled.map({ Self.target(of: $0.change) }) {
            #expect((240...400).contains(kbps), "\(log)")
        }
        // Back at the ceiling within 30 s of the link freeing.
        let back = run.changes.first { $0.at > 60 * Self.second && Self.target(of: $0.change) == 1200 }
        #expect(back.map { $0.at <= 90 * Self.second } == true, "\(log)")
    }

    static func target(of change: AdaptiveBitrateController.Change) -> Int {
        switch change {
        case .lowered(_, let to, _, _), .raised(_, let to, _): to
        }
    }

    @Test func aSecondOfLossRecoveryDoesNotPullTheEstimateDown() {
        // Congested at 400 for 3 s, then a second at 150 (a loss burst): the best window stays.
        var run = Self.congestedRun(linkKbps: 400, floor: 100)
        run.run(seconds: 3)
        run.links[0].kbps = 150
        run.run(seconds: 1.5)
        run.links[0].kbps = 400
        run.run(seconds: 3)
        #expect(run.changes.map(\.change) == [.lowered(from: 1200, to: 320, output: Self.name, sendKbps: 400)])
    }

    @Test func aLinkThatBecameSlowerIsFollowedWhenItsQueueKeepsGrowing() {
        var run = Self.congestedRun(linkKbps: 600, floor: 100)
        run.run(seconds: 1)
        run.links[0].queuedMilliseconds = 0
        run.run(seconds: 5)
        #expect(run.controller.currentKbps == 480)
        // The link now carries 300: the queue grows by 10 ms a tick.
        let slowerAt = run.now
        run.links[0].kbps = 300
        run.links[0].queuedMilliseconds = 200
        run.run(seconds: 12) { links, _ in links[0].queuedMilliseconds += 10 }
        let lowered = run.changes.dropFirst()
        #expect(!lowered.isEmpty)
        // Not before it has been congested for 3 s (a loss burst's queue drains before that).
        #expect(lowered.first.map { $0.at - slowerAt >= 3 * Self.second } == true)
        #expect(run.controller.currentKbps == 240)
    }

    @Test func aLossBurstAtTheSafeLevelChangesNothing() {
        var run = Self.congestedRun(linkKbps: 400)
        run.run(seconds: 1)
        run.links[0].queuedMilliseconds = 0
        run.run(seconds: 10)
        // A second and a half at 150 kbit/s: 400 ms of media pile up, then drain.
        run.links[0].kbps = 150
        run.run(seconds: 1.5) { links, _ in links[0].queuedMilliseconds += 27 }
        run.links[0].kbps = 400
        run.run(seconds: 4) { links, _ in links[0].queuedMilliseconds = max(0, links[0].queuedMilliseconds - 15) }
        #expect(run.changes.count == 1)
        #expect(run.controller.currentKbps == 320)
    }

    @Test func aSecondLoweringWaitsForTheLinkToSettleUnlessASecondWaits() {
        // Lowered at 0.2 s (read early, then measured at 0.8 s); the link then carries 300 and
        // the queue keeps growing.
        var run = Self.congestedRun(linkKbps: 600, floor: 100)
        run.run(seconds: 0.8)
        let loweredAt = run.changes.first?.at ?? 0
        run.links[0].kbps = 300
        run.run(seconds: 2.5) { links, _ in links[0].queuedMilliseconds += 10 }
        #expect(run.changes.count == 2)
        #expect(run.changes.last?.at == loweredAt + 2 * Self.second)
        // With a second waiting, before the 2 s are over.
        var urgent = Self.congestedRun(linkKbps: 600, floor: 100)
        urgent.run(seconds: 0.8)
        urgent.links[0].kbps = 300
        urgent.links[0].queuedMilliseconds = 1000
        urgent.run(seconds: 0.4) { links, _ in links[0].queuedMilliseconds += 20 }
        #expect(urgent.changes.count == 2)
        // A second after the first: once a second at most.
        #expect(urgent.changes.last?.at == loweredAt + Self.second)
        // Draining without growing: nothing more.
        urgent.run(seconds: 10)
        #expect(urgent.changes.count == 2)
    }

    @Test func aQueueWithNothingInTheSocketIsNotTheLinksFault() {
        let busyThread = AdaptiveBitrateController.Observation(
            id: 1, name: "x", link: LinkSample(connection: 1, bytesAcked: 10, queuedMilliseconds: 800, unsentBytes: 0))
        var controller = AdaptiveBitrateController(ceilingKbps: 1200, floorKbps: 300)
        var changes: [AdaptiveBitrateController.Change] = []
        for step in 1...50 {
            var sample = busyThread
            sample.link?.bytesAcked = UInt64(step) * 5000
            if let change = controller.observe([sample], at: UInt64(step) * Self.tick) { changes.append(change) }
        }
        #expect(changes.isEmpty)
    }

    @Test func nothingClimbsWhileTheQueueStillDrains() {
        // The throttle's first second: a loss burst, the link carries 200; lowered to the floor.
        var run = Self.congestedRun(linkKbps: 200)
        run.run(seconds: 1)
        #expect(run.changes.map(\.change) == [.lowered(from: 1200, to: 300, output: Self.name, sendKbps: 200)])
        // TCP recovers: 400 while the old backlog drains (congested, not growing): no lowering,
        // and the known rate follows the link up.
        run.links[0].kbps = 400
        run.run(seconds: 12)
        #expect(run.changes.count == 1)
        #expect(run.controller.knownLinkKbps == 400)
        // Below the trigger, above "drained": 20 s and no raise.
        run.links[0].queuedMilliseconds = 150
        run.run(seconds: 20)
        #expect(run.changes.count == 1)
        let drainedAt = run.now
        run.links[0].queuedMilliseconds = 0
        run.run(seconds: 2.5)
        // Then straight back to 80 % of the link, in one change.
        #expect(run.changes.last?.change == .raised(from: 300, to: 320, reason: .recovering(linkKbps: 400)))
        #expect(run.changes.last?.at == drainedAt + Self.tick + 2 * Self.second)
        #expect(run.changes.count == 2)
    }

    @Test func aProbeComesAfterAMinuteOfCalmAndBacksOffAtOnce() {
        var run = Self.congestedRun(linkKbps: 400)
        run.run(seconds: 1)
        let settledAt = run.now
        run.links[0].queuedMilliseconds = 0
        run.run(seconds: 60.5)
        #expect(run.changes.last?.change == .raised(from: 320, to: 440, reason: .probing(linkKbps: 400)))
        #expect(run.changes.last?.at == settledAt + Self.tick + 60 * Self.second)
        // The link still carries 400: the queue grows, and the probe ends as soon as the busy
        // link is measured, back to where it was.
        run.links[0].queuedMilliseconds = 250
        run.run(seconds: 1)
        #expect(run.changes.last?.change == .lowered(from: 440, to: 320, output: Self.name, sendKbps: 400))
        #expect(run.changes.count == 3)
        #expect(run.controller.knownLinkKbps == 400)
    }

    @Test func aProbeThatHoldsFreesTheClimb() {
        var run = Self.congestedRun(linkKbps: 400)
        run.run(seconds: 1)
        run.links[0].queuedMilliseconds = 0
        run.links[0].kbps = 5000
        run.run(seconds: 70)
        #expect(run.changes.dropFirst().map(\.change) == [
            .raised(from: 320, to: 440, reason: .probing(linkKbps: 400)),
            .raised(from: 440, to: 660, reason: .climbing), .raised(from: 660, to: 990, reason: .climbing),
            .raised(from: 990, to: 1200, reason: .climbing),
        ])
        #expect(run.controller.knownLinkKbps == nil)
    }

    @Test func aLinkFoundIdleEvenAtItsKeyframesHasRoom() {
        var run = Self.congestedRun(linkKbps: 400)
        run.run(seconds: 1)
        let freedAt = run.now
        run.links[0].queuedMilliseconds = 0
        run.links[0].kbps = 5000
        run.links[0].unackedSegments = 0
        run.run(seconds: 16)
        #expect(run.controller.currentKbps == 1200)
        #expect(run.changes[1].change == .raised(from: 320, to: 480, reason: .climbing))
        // Six seconds of samples with nothing in flight, a few keyframes' worth.
        #expect(run.changes[1].at - freedAt <= 6 * Self.second + 2 * Self.tick)
    }
}
