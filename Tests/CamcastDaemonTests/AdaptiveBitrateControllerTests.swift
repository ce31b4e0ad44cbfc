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
        /// Segments in flight: one unless set (a link never found idle).
        var unackedSegments = 1
        var inFlightBytes = 0

        mutating func advance(nanoseconds: UInt64) {
            bytesAcked += UInt64(kbps) * nanoseconds / 8_000_000
        }

        var observation: AdaptiveBitrateController.Observation {
            AdaptiveBitrateController.Observation(
                id: id, name: name,
                link: connected
                    ? LinkSample(
                        connection: connection, bytesAcked: bytesAcked, queuedMilliseconds: queuedMilliseconds,
                        unsentBytes: unsentBytes ?? (queuedMilliseconds > 0 ? 1 : 0), unackedSegments: unackedSegments,
                        inFlightBytes: inFlightBytes)
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
        /// `simulate`'s backlog: media made and not yet carried by the link, in bits.
        var backlogBits = 0.0

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

        /// The first link as a bottleneck the encoder feeds: each tick the encoder adds the
        /// controller's bitrate to a backlog, the link takes up to `linkKbps(now)` from it. Media
        /// waits while a backlog remains; the link is found with nothing in flight when it carried
        /// under a fifth of what it could.
        mutating func simulate(seconds: Double, linkKbps: (UInt64) -> Int) {
            let end = now + UInt64(seconds * 1e9)
            while now < end {
                now += AdaptiveBitrateControllerTests.tick
                backlogBits += Double(controller.currentKbps) * 100
                let capacity = Double(linkKbps(now)) * 100
                let sent = min(backlogBits, capacity)
                backlogBits -= sent
                links[0].bytesAcked += UInt64(sent / 8)
                links[0].queuedMilliseconds = Int64(backlogBits / Double(controller.currentKbps))
                links[0].unsentBytes = backlogBits > 0 ? 1 : 0
                links[0].unackedSegments = sent >= capacity / 5 ? 1 : 0
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

    static let name = "rtmp://a/live/****"

    @Test func aCongestedLinkLowersTheBitrateTo80PercentOfWhatItCarries() throws {
        var run = Self.congestedRun(linkKbps: 590)
        run.run(seconds: 3)
        let first = try #require(run.changes.first)
        #expect(first.change == .lowered(from: 1200, to: 470, output: Self.name, sendKbps: 590))
        // Busy from the first sample (0.1 s): its first busy interval reads it early (at 0.2 s);
        // 0.7 s of busy intervals measure it, and agree.
        #expect(first.at == 2 * Self.tick)
        #expect(run.changes.count == 1)
        #expect(run.controller.knownLinkKbps == 590)
    }

    // Even rates: the script's links then carry a whole number of bytes per 100 ms tick.
    @Test(arguments: [(1198, 950), (600, 480), (654, 520), (98, 300)])
    func theNewBitrateIsTheHeadroomBelowTheLinkAboveTheFloor(link: Int, expected: Int) throws {
        var run = Self.congestedRun(linkKbps: link)
        run.run(seconds: 1.5)
        let change = try #require(run.changes.first?.change)
        #expect(change == .lowered(from: 1200, to: expected, output: Self.name, sendKbps: link))
    }

    @Test func lessThan200MillisecondsWaitingChangesNothing() {
        var run = Self.congestedRun(linkKbps: 400)
        run.links[0].queuedMilliseconds = 199
        run.run(seconds: 10)
        #expect(run.changes.isEmpty)
        run.links[0].queuedMilliseconds = 200
        run.run(seconds: 0.1)
        #expect(run.changes.map(\.change) == [.lowered(from: 1200, to: 320, output: Self.name, sendKbps: 400)])
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
        #expect(run.changes.map(\.change) == [.lowered(from: 1200, to: 320, output: Self.name, sendKbps: 400)])
    }

    @Test func onlyTimeTheLinkWasBusyMeasuresIt() {
        // 1.5 s carrying what the encoder makes (100 kbit/s, nothing waits), then congested at 800.
        var run = Self.congestedRun(linkKbps: 100)
        run.links[0].queuedMilliseconds = 0
        run.run(seconds: 1.5)
        let congestedAt = run.now
        run.links[0].kbps = 800
        run.links[0].queuedMilliseconds = 300
        run.run(seconds: 2)
        #expect(run.changes.map(\.change) == [.lowered(from: 1200, to: 640, output: Self.name, sendKbps: 800)])
        #expect(run.changes.first?.at == congestedAt + 2 * Self.tick)
    }

    @Test func theFloorIsNeverCrossed() {
        var run = Self.congestedRun(linkKbps: 150, floor: 400)
        run.run(seconds: 10)
        #expect(run.changes.map(\.change) == [.lowered(from: 1200, to: 400, output: Self.name, sendKbps: 150)])
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
        #expect(run.changes.map(\.change) == [.lowered(from: 2000, to: 560, output: "rtmp://slow/live/****", sendKbps: 700)])
    }

    @Test func anOutputThatDisconnectsNoLongerHoldsTheBitrateDown() {
        var run = Run(
            controller: AdaptiveBitrateController(ceilingKbps: 1000, floorKbps: 100),
            links: [
                ScriptedLink(id: 1, name: "rtmp://fast/live/****", kbps: 1000, unackedSegments: 0),
                ScriptedLink(id: 2, name: "rtmp://slow/live/****", kbps: 300, queuedMilliseconds: 600),
            ])
        run.run(seconds: 1.5)
        #expect(run.controller.currentKbps == 240)
        // The slow one loses its connection: only the fast one is left, idle most of the time.
        run.links[1].connected = false
        run.run(seconds: 30)
        #expect(run.controller.currentKbps == 1000)
        // It comes back on a new connection whose byte count starts from zero, congested at once.
        run.links[1].connected = true
        run.links[1].connection = 2
        run.links[1].bytesAcked = 0
        run.links[1].kbps = 400
        let back = run.now
        run.run(seconds: 2)
        #expect(run.changes.last?.change == .lowered(from: 1000, to: 320, output: "rtmp://slow/live/****", sendKbps: 400))
        #expect(run.changes.last?.at == back + 2 * Self.tick)
    }

    @Test func anOutputThatLeavesTheSetIsForgotten() {
        // Busy at 2000 kbit/s without congestion (nothing waits), then gone for 5 s.
        var run = Self.congestedRun(linkKbps: 2000, floor: 100)
        run.links[0].queuedMilliseconds = 0
        run.links[0].unsentBytes = 1
        run.run(seconds: 0.5)
        #expect(run.changes.isEmpty)
        let saved = run.links
        run.links = []
        run.run(seconds: 5)
        // Back, congested at 300: read from its new samples alone, not from the fast ones.
        run.links = saved
        run.links[0].kbps = 300
        run.links[0].queuedMilliseconds = 500
        run.run(seconds: 0.3)
        #expect(run.changes.map(\.change) == [.lowered(from: 1200, to: 240, output: Self.name, sendKbps: 300)])
    }

    /// Issue 41: a link that has just become slower takes a second's worth of media into TCP's
    /// flight before anything stays unsent. More in flight than the last second delivered is
    /// congestion, read early.
    @Test func aFlightFullerThanASecondOfDeliveryIsCongestion() {
        // Two seconds free at 1200 kbit/s (150 kB a second acknowledged, little in flight).
        var run = Self.congestedRun(linkKbps: 1200)
        run.links[0].queuedMilliseconds = 0
        run.links[0].unsentBytes = 0
        run.links[0].inFlightBytes = 20_000
        run.run(seconds: 2)
        #expect(run.changes.isEmpty)
        // Throttled to 200: nothing unsent, nothing queued, the flight grows by 125 kB a second.
        let throttledAt = run.now
        run.links[0].kbps = 200
        run.run(seconds: 1) { links, _ in links[0].inFlightBytes += 12_500 }
        let first = run.changes.first
        #expect(first.map { $0.at - throttledAt <= 8 * Self.tick } == true, "\(run.changes)")
        #expect(run.controller.currentKbps < 600, "\(run.changes)")
    }

    /// A stream's first packets wait while the link has acknowledged nothing yet: no reading,
    /// no early lowering to the floor; the first bytes delivered are read.
    @Test func aLinkThatDeliveredNothingYetIsNotReadAsZero() {
        var run = Self.congestedRun(linkKbps: 0)
        run.run(seconds: 0.4)
        #expect(run.changes.isEmpty, "\(run.changes)")
        run.links[0].kbps = 400
        run.run(seconds: 0.2)
        #expect(run.changes.map(\.change) == [.lowered(from: 1200, to: 320, output: Self.name, sendKbps: 400)], "\(run.changes)")
    }

    @Test func aReloadMovesTheCeiling() {
        var atCeiling = AdaptiveBitrateController(ceilingKbps: 1200, floorKbps: 300)
        #expect(atCeiling.setCeiling(2000, floorKbps: 500, at: 0) == 2000)
        #expect(atCeiling.floorKbps == 500)
        var run = Self.congestedRun(linkKbps: 600)
        run.run(seconds: 1.5)
        #expect(run.controller.setCeiling(2000, floorKbps: 300, at: run.now) == 480)
        #expect(run.controller.setCeiling(400, floorKbps: 300, at: run.now) == 400)
        #expect(run.controller.setCeiling(200, floorKbps: 300, at: run.now) == 200)
        #expect(run.controller.floorKbps == 200)
        run.links[0].queuedMilliseconds = 0
        run.run(seconds: 10)
        #expect(run.controller.currentKbps == 200)
    }

    @Test func eachChangeIsOneLine() {
        #expect(BitrateAdapter.describe(.lowered(from: 1200, to: 470, output: Self.name, sendKbps: 590)) == (
            470, "bitrate lowered 1200 → 470 kbit/s: output rtmp://a/live/**** carries 590 kbit/s"))
        #expect(BitrateAdapter.describe(.raised(from: 300, to: 320, reason: .recovering(linkKbps: 400))) == (
            320, "bitrate raised 300 → 320 kbit/s: the queue drained, back below the link's 400 kbit/s"))
        #expect(BitrateAdapter.describe(.raised(from: 320, to: 440, reason: .probing(linkKbps: 400))) == (
            440, "bitrate raised 320 → 440 kbit/s: probing above the link's 400 kbit/s"))
        #expect(BitrateAdapter.describe(.raised(from: 460, to: 690, reason: .climbing)) == (
            690, "bitrate raised 460 → 690 kbit/s: the links have room"))
    }
}
