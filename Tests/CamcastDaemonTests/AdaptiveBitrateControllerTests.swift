import Testing
@testable import CamcastDaemon
@testable import Outputs

/// The controller against scripted links on a scripted clock: each output is a link of a given
/// rate whose acknowledged bytes and queue the script advances, sampled every 100 ms as the
/// daemon does. No sleeps, no wall-clock timing.
struct AdaptiveBitrateControllerTests {
    static let tick: UInt64 = 100_000_000
    static let second: UInt64 = 1_000_000_000

    /// One scripted output: `kbps` is what its link carries; `queued` the media waiting.
    struct ScriptedLink {
        var id: Int
        var name: String
        var kbps: Int
        var queuedMilliseconds: Int64 = 0
        /// The kernel's unsent bytes: one (0 ms of media) whenever something is queued, unless set.
        var unsentBytes: Int?
        var connection = 1
        var connected = true
        var bytesAcked: UInt64 = 0

        mutating func advance(nanoseconds: UInt64) {
            bytesAcked += UInt64(kbps) * nanoseconds / 8_000_000
        }

        var observation: AdaptiveBitrateController.Observation {
            AdaptiveBitrateController.Observation(
                id: id, name: name,
                link: connected
                    ? LinkSample(
                        connection: connection, bytesAcked: bytesAcked, queuedMilliseconds: queuedMilliseconds,
                        unsentBytes: unsentBytes ?? (queuedMilliseconds > 0 ? 1 : 0))
                    : nil)
        }
    }

    /// Runs the controller over `links` for `seconds` from `start`, with `script` adjusting the
    /// links before each sample; returns every change with its time.
    struct Run {
        var controller: AdaptiveBitrateController
        var links: [ScriptedLink]
        var now: UInt64 = 0
        var changes: [(at: UInt64, change: AdaptiveBitrateController.Change)] = []

        mutating func run(seconds: Double, _ script: (inout [ScriptedLink], UInt64) -> Void = { _, _ in }) {
            let end = now + UInt64(seconds * 1e9)
            while now < end {
                now += AdaptiveBitrateControllerTests.tick
                for index in links.indices { links[index].advance(nanoseconds: AdaptiveBitrateControllerTests.tick) }
                script(&links, now)
                if let change = controller.observe(links.map(\.observation), at: now) {
                    changes.append((now, change))
                }
            }
        }
    }

    static func congestedRun(linkKbps: Int, ceiling: Int = 1200, floor: Int = 300) -> Run {
        Run(
            controller: AdaptiveBitrateController(ceilingKbps: ceiling, floorKbps: floor),
            links: [ScriptedLink(id: 1, name: "rtmp://a/live/****", kbps: linkKbps, queuedMilliseconds: 500)])
    }

    @Test func aCongestedLinkLowersTheBitrateToItsMeasuredRateRoundedDown() throws {
        var run = Self.congestedRun(linkKbps: 590)
        run.run(seconds: 3)
        let first = try #require(run.changes.first)
        #expect(first.change == .lowered(from: 1200, to: 500, output: "rtmp://a/live/****", sendKbps: 590))
        // Measured over a full second of samples (the first one at 0.1 s) before deciding.
        #expect(first.at == Self.second + Self.tick)
        // Still congested at the same rate: no second change (the rounded rate is not lower).
        #expect(run.changes.count == 1)
        #expect(run.controller.currentKbps == 500)
    }

    // Even rates: the script's links then carry a whole number of bytes per 100 ms tick.
    @Test(arguments: [(1198, 1100), (600, 600), (654, 600), (98, 300)])
    func theNewBitrateIsTheSendRateRoundedDownToAHundredAboveTheFloor(link: Int, expected: Int) throws {
        var run = Self.congestedRun(linkKbps: link)
        run.run(seconds: 1.5)
        let change = try #require(run.changes.first?.change)
        guard case .lowered(_, let to, _, let sendKbps) = change else {
            Issue.record("expected a lowering, got \(change)")
            return
        }
        #expect(sendKbps == link)
        #expect(to == expected)
    }

    @Test func lessThan200MillisecondsWaitingChangesNothing() {
        var run = Self.congestedRun(linkKbps: 400)
        run.links[0].queuedMilliseconds = 199
        run.run(seconds: 10)
        #expect(run.changes.isEmpty)
        run.links[0].queuedMilliseconds = 200
        run.run(seconds: 1.5)
        #expect(run.changes.map(\.change) == [.lowered(from: 1200, to: 400, output: "rtmp://a/live/****", sendKbps: 400)])
    }

    @Test func whatTheKernelHasNotSentCountsTowardThe200Milliseconds() {
        // 100 ms in the queue; at 1200 kbit/s, 14 999 bytes are 99 ms of media, 15 000 are 100.
        var run = Self.congestedRun(linkKbps: 400)
        run.links[0].queuedMilliseconds = 100
        run.links[0].unsentBytes = 14_999
        run.run(seconds: 5)
        #expect(run.changes.isEmpty)
        run.links[0].unsentBytes = 15_000
        run.run(seconds: 0.1)
        #expect(run.changes.map(\.change) == [.lowered(from: 1200, to: 400, output: "rtmp://a/live/****", sendKbps: 400)])
    }

    @Test func onlyTimeTheLinkWasBusyMeasuresIt() {
        // 1.5 s idle (nothing waits: it carries what the encoder makes, 100 kbit/s), then
        // congested at 800: the first second of congestion measures 800, not a mix.
        var run = Self.congestedRun(linkKbps: 100)
        run.links[0].queuedMilliseconds = 0
        run.run(seconds: 1.5)
        let congestedAt = run.now
        run.links[0].kbps = 800
        run.links[0].queuedMilliseconds = 300
        run.run(seconds: 2)
        #expect(run.changes.map(\.change) == [.lowered(from: 1200, to: 800, output: "rtmp://a/live/****", sendKbps: 800)])
        // One second of busy intervals: from the first busy sample, 0.1 s after congestion began.
        #expect(run.changes.first?.at == congestedAt + Self.second + Self.tick)
    }

    @Test func aMomentOfLossRecoveryIsNotTheLinksCapacity() {
        // 1 s carrying the encoder's 560 with nothing waiting, then 1 s congested at 280 (TCP
        // recovering from a loss burst): over the window (0.1 … 2.1 s) the link delivered
        // (0.9 × 560 + 1.1 × 280) / 2 = 406, not the 280 of its busy moments alone.
        var run = Self.congestedRun(linkKbps: 560, ceiling: 620)
        run.links[0].queuedMilliseconds = 0
        run.run(seconds: 1)
        run.links[0].kbps = 280
        run.links[0].queuedMilliseconds = 300
        run.run(seconds: 1.1)
        #expect(run.changes.map(\.change) == [.lowered(from: 620, to: 400, output: "rtmp://a/live/****", sendKbps: 406)])
    }

    @Test func aSecondLoweringWaitsForTheLinkToSettleUnlessAlmostASecondWaits() {
        // Lowered to 500; the link then carries only 300 while it drains the old backlog.
        var run = Self.congestedRun(linkKbps: 590, floor: 100)
        run.run(seconds: 1.1)
        let loweredAt = run.now
        run.links[0].kbps = 300
        run.run(seconds: 1.8)
        #expect(run.changes.count == 1, "no second lowering within 2 s")
        run.run(seconds: 0.2)
        #expect(run.changes.last?.change == .lowered(from: 500, to: 300, output: "rtmp://a/live/****", sendKbps: 300))
        #expect(run.changes.last?.at == loweredAt + 2 * Self.second)

        // With a second of media waiting, at once (after its one second of measurement).
        var urgent = Self.congestedRun(linkKbps: 590, floor: 100)
        urgent.run(seconds: 1.1)
        let urgentLoweredAt = urgent.now
        urgent.links[0].kbps = 300
        urgent.links[0].queuedMilliseconds = 1000
        urgent.run(seconds: 1.1)
        #expect(urgent.changes.map(\.change).last == .lowered(from: 500, to: 300, output: "rtmp://a/live/****", sendKbps: 300))
        #expect(urgent.changes.last?.at == urgentLoweredAt + Self.second)
    }

    @Test func aQueueWithNothingInTheSocketIsNotTheLinksFault() {
        // The publisher thread fell behind (CPU), the kernel sent everything: not congestion.
        var run = Self.congestedRun(linkKbps: 400)
        run.run(seconds: 5) { links, _ in
            links[0].queuedMilliseconds = 800
        }
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
        #expect(run.changes.count == 1)  // the same queue over a full socket does lower
    }

    @Test func aFreedLinkClimbsBackByATenthOfTheCeilingEveryFourSeconds() {
        var run = Self.congestedRun(linkKbps: 500)
        run.run(seconds: 1.5)
        #expect(run.controller.currentKbps == 500)
        // The link frees: nothing waits any more. The last congested sample was just now.
        let freedAt = run.now
        run.links[0].queuedMilliseconds = 0
        run.links[0].kbps = 5000
        run.run(seconds: 40)
        let raises = run.changes.dropFirst()
        #expect(raises.map(\.change) == [
            .raised(from: 500, to: 620), .raised(from: 620, to: 740), .raised(from: 740, to: 860),
            .raised(from: 860, to: 980), .raised(from: 980, to: 1100), .raised(from: 1100, to: 1200),
        ])
        #expect(raises.map(\.at) == (1...6).map { freedAt + UInt64($0) * 4 * Self.second })
        #expect(run.controller.currentKbps == 1200)
    }

    @Test func congestionPostponesTheNextStepUp() {
        var run = Self.congestedRun(linkKbps: 500)
        run.run(seconds: 1.5)
        run.links[0].queuedMilliseconds = 0
        run.run(seconds: 3)
        // Congested again briefly, at a rate that does not lower further (above the bitrate).
        run.links[0].kbps = 900
        run.links[0].queuedMilliseconds = 300
        run.run(seconds: 0.5)
        let congestionEnd = run.now
        run.links[0].queuedMilliseconds = 0
        run.run(seconds: 8)
        #expect(run.changes.dropFirst().map(\.change) == [.raised(from: 500, to: 620), .raised(from: 620, to: 740)])
        #expect(run.changes[1].at == congestionEnd + 4 * Self.second)
    }

    @Test func theFloorIsNeverCrossed() {
        var run = Self.congestedRun(linkKbps: 150, floor: 400)
        run.run(seconds: 10)
        #expect(run.changes.map(\.change) == [.lowered(from: 1200, to: 400, output: "rtmp://a/live/****", sendKbps: 150)])
        #expect(run.controller.currentKbps == 400)
    }

    @Test func theSlowestOfSeveralOutputsSetsTheBitrate() {
        var run = Run(
            controller: AdaptiveBitrateController(ceilingKbps: 2000, floorKbps: 200),
            links: [
                ScriptedLink(id: 1, name: "rtmp://fast/live/****", kbps: 1500, queuedMilliseconds: 400),
                ScriptedLink(id: 2, name: "rtmp://slow/live/****", kbps: 700, queuedMilliseconds: 400),
                ScriptedLink(id: 3, name: "rtmp://free/live/****", kbps: 100, queuedMilliseconds: 0),
            ])
        run.run(seconds: 1.5)
        // The free one sends little because little waits: it is not slow, it is idle.
        #expect(run.changes.map(\.change) == [.lowered(from: 2000, to: 700, output: "rtmp://slow/live/****", sendKbps: 700)])
    }

    @Test func anOutputThatDisconnectsNoLongerHoldsTheBitrateDown() {
        var run = Run(
            controller: AdaptiveBitrateController(ceilingKbps: 1000, floorKbps: 100),
            links: [
                ScriptedLink(id: 1, name: "rtmp://fast/live/****", kbps: 1000),
                ScriptedLink(id: 2, name: "rtmp://slow/live/****", kbps: 300, queuedMilliseconds: 600),
            ])
        run.run(seconds: 1.5)
        #expect(run.controller.currentKbps == 300)
        // The slow one loses its connection (its queue is suspended): only the fast one is left.
        run.links[1].connected = false
        run.run(seconds: 30)
        #expect(run.controller.currentKbps == 1000)
        #expect(run.changes.count == 1 + 7)

        // It comes back on a new connection whose byte count starts from zero, congested at once:
        // one second of fresh measurement, then it lowers again, to what the new connection carries.
        run.links[1].connected = true
        run.links[1].connection = 2
        run.links[1].bytesAcked = 0
        run.links[1].kbps = 400
        let back = run.now
        run.run(seconds: 2)
        #expect(run.changes.last?.change == .lowered(from: 1000, to: 400, output: "rtmp://slow/live/****", sendKbps: 400))
        #expect(run.changes.last?.at == back + Self.second + Self.tick)
    }

    @Test func anOutputThatLeavesTheSetIsForgotten() {
        var run = Self.congestedRun(linkKbps: 300)
        run.run(seconds: 0.5)
        // Removed by a reload before its window filled: its old samples must not be used when
        // an output with the same id shows up later (over 5 s, they would read as a link that
        // carried almost nothing).
        let saved = run.links
        run.links = []
        run.run(seconds: 5)
        run.links = saved
        run.run(seconds: 0.9)
        #expect(run.changes.isEmpty)
    }

    @Test func aReloadMovesTheCeiling() {
        // At the ceiling: the bitrate moves with it.
        var atCeiling = AdaptiveBitrateController(ceilingKbps: 1200, floorKbps: 300)
        #expect(atCeiling.setCeiling(2000, floorKbps: 500, at: 0) == 2000)
        #expect(atCeiling.floorKbps == 500)

        // Adapted down: it stays, climbs by a tenth of the new ceiling, and stops there.
        var run = Self.congestedRun(linkKbps: 500)
        run.run(seconds: 1.5)
        #expect(run.controller.setCeiling(2000, floorKbps: 300, at: run.now) == 500)
        run.links[0].queuedMilliseconds = 0
        run.run(seconds: 4)
        #expect(run.changes.last?.change == .raised(from: 500, to: 700))

        // A ceiling below the adapted bitrate lowers it at once; below the floor, the floor follows.
        #expect(run.controller.setCeiling(600, floorKbps: 300, at: run.now) == 600)
        #expect(run.controller.setCeiling(200, floorKbps: 300, at: run.now) == 200)
        #expect(run.controller.floorKbps == 200)
        run.run(seconds: 10)
        #expect(run.controller.currentKbps == 200)
    }

    /// The log line of each change, as the issue words it.
    @Test func eachChangeIsOneLine() {
        #expect(BitrateAdapter.describe(.lowered(from: 1200, to: 500, output: "rtmp://a/live/****", sendKbps: 520)) == (
            500, "bitrate lowered 1200 → 500 kbit/s: output rtmp://a/live/**** sends 520 kbit/s"))
        #expect(BitrateAdapter.describe(.raised(from: 500, to: 620)) == (620, "bitrate raised 500 → 620 kbit/s: no output congested"))
    }
}
