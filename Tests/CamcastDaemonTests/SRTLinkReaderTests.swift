import SRT
import Telemetry
import Testing
@testable import CamcastDaemon
@testable import Outputs

/// libsrt's statistics as adaptive bitrate and the stall reading take them: golden values for the
/// mapping, then the one controller over SRT-shaped samples. No libsrt, no clock.
struct SRTLinkReaderTests {
    static func statistics(
        rtt: Double = 1, bufferMilliseconds: Int = 0, bufferPackets: Int = 0, bufferBytes: Int = 0, handedPackets: Int = 0,
        handedBytes: Int = 0, droppedPackets: Int = 0, droppedBytes: Int = 0
    ) -> SRTLinkStatistics {
        SRTLinkStatistics(
            handedPackets: handedPackets, handedBytes: handedBytes, roundTripMilliseconds: rtt, sendBufferMilliseconds: bufferMilliseconds,
            sendBufferPackets: bufferPackets, sendBufferBytes: bufferBytes, droppedPackets: droppedPackets, droppedBytes: droppedBytes)
    }

    /// Waiting media on the controller's scale: (send buffer − ⌈RTT⌉ − 20 ms) × 2000 / latency
    /// (one sample: its RTT is the connection's smallest).
    @Test(arguments: [
        // latency, RTT, send buffer (ms) → waiting (controller ms)
        (500, 0.4, 12, Int64(0)),  // loopback: one frame's packets, acknowledged within two periods
        (500, 50.0, 70, 0),  // exactly a round trip and two periods: a link that keeps up
        (500, 50.0, 120, 200),  // 50 ms past it, a tenth of the budget: the controller's trigger
        (500, 50.0, 320, 1000),  // half the budget past it: urgent
        (500, 50.0, 570, 2000),  // the whole budget: the receiver gives up on packets from here
        (2000, 50.2, 271, 200),  // ⌈50.2⌉ = 51; a longer budget waits for more
        (120, 1.0, 33, 200),  // a short budget acts on 12 ms
    ])
    func theSendBufferPastARoundTripIsWaitingMediaWeighedAgainstTheLatency(
        latency: Int, rtt: Double, buffer: Int, waiting: Int64
    ) {
        var reader = SRTLinkReader(latencyMilliseconds: latency)
        let sample = reader.sample(Self.statistics(rtt: rtt, bufferMilliseconds: buffer, bufferPackets: 3), connection: 1, queuedMilliseconds: 0)
        #expect(sample.transportWaitingMilliseconds == waiting)
        #expect(sample.unsentBytes == 0 && sample.unackedSegments == 3)
        // The controller's own reading of it: the queue's span adds to it, nothing else does.
        let controller = AdaptiveBitrateController(ceilingKbps: 1200, floorKbps: 300)
        #expect(controller.waitingMilliseconds(sample) == waiting)
        var queued = sample
        queued.queuedMilliseconds = 40
        #expect(controller.waitingMilliseconds(queued) == (waiting > 0 ? waiting + 40 : 0))
    }

    /// A queue in front of the link delays the acknowledgements too: the RTT grows with the
    /// backlog (400 ms on tc-tbf beside a 500 ms send buffer). The connection's smallest RTT
    /// counts, and libsrt's 100 ms before it measured any is none.
    @Test func aRoundTripGrownWithTheBacklogDoesNotHideIt() {
        var reader = SRTLinkReader(latencyMilliseconds: 500)
        let initial = reader.sample(Self.statistics(rtt: 100, bufferMilliseconds: 150), connection: 1, queuedMilliseconds: 0)
        #expect(initial.transportWaitingMilliseconds == 520)  // (150 − 0 − 20) × 4: no RTT known yet
        _ = reader.sample(Self.statistics(rtt: 1.6, bufferMilliseconds: 10), connection: 1, queuedMilliseconds: 0)
        let bloated = reader.sample(Self.statistics(rtt: 400, bufferMilliseconds: 500), connection: 1, queuedMilliseconds: 0)
        #expect(bloated.transportWaitingMilliseconds == 1912)  // (500 − ⌈1.6⌉ − 20) × 4
        // A new connection measures its own.
        let next = reader.sample(Self.statistics(rtt: 60, bufferMilliseconds: 100), connection: 2, queuedMilliseconds: 0)
        #expect(next.transportWaitingMilliseconds == 80)  // (100 − 60 − 20) × 4
    }

    /// libsrt's first RTT comes once media flows, when a queue may be full already (411 ms on
    /// tc-tbf from the first reading on): half the handshake's two round trips bounds the base.
    @Test func theHandshakeBoundsTheRoundTripBeforeMediaQueued() {
        var reader = SRTLinkReader(latencyMilliseconds: 500)
        var statistics = Self.statistics(rtt: 411, bufferMilliseconds: 500)
        statistics.handshakeMilliseconds = 3.0
        let sample = reader.sample(statistics, connection: 1, queuedMilliseconds: 0)
        #expect(sample.transportWaitingMilliseconds == 1912)  // (500 − ⌈1.5⌉ − 20) × 4
    }

    @Test func acknowledgedIsHandedLessBufferedLessDropped() {
        var reader = SRTLinkReader(latencyMilliseconds: 500)
        let sample = reader.sample(
            Self.statistics(
                bufferPackets: 40, bufferBytes: 52_000, handedPackets: 1000, handedBytes: 1_300_000, droppedPackets: 5, droppedBytes: 6_500),
            connection: 1, queuedMilliseconds: 0)
        #expect(sample.bytesAcked == 1_241_500 && reader.acknowledged == 1_241_500)
    }

    @Test func countsNeverGoBackWithinAConnectionAndStartAgainWithANewOne() {
        var reader = SRTLinkReader(latencyMilliseconds: 500)
        _ = reader.sample(Self.statistics(bufferPackets: 2, bufferBytes: 2632, handedPackets: 100, handedBytes: 131_600), connection: 3, queuedMilliseconds: 0)
        #expect(reader.acknowledged == 128_968)
        // A packet handed after the handed counts were read, before libsrt's: one more buffered.
        let later = reader.sample(
            Self.statistics(bufferPackets: 3, bufferBytes: 3948, handedPackets: 100, handedBytes: 131_600), connection: 3, queuedMilliseconds: 0)
        #expect(later.bytesAcked == 128_968 && reader.acknowledged == 128_968)
        let next = reader.sample(Self.statistics(bufferPackets: 1, bufferBytes: 1316, handedPackets: 10, handedBytes: 13_160), connection: 4, queuedMilliseconds: 0)
        #expect(next.connection == 4 && next.bytesAcked == 11_844 && reader.acknowledged == 11_844)
    }

    /// A black-holed SRT link: the buffer fills, libsrt drops what is too late, nothing is
    /// acknowledged. Drops leave the buffer as acknowledgements would; they are no progress. The
    /// figures are a black hole's as libsrt 1.5.1 reported them: one "packet" per drop event.
    @Test func dropsAreNoProgressForTheStallReading() {
        var reader = SRTLinkReader(latencyMilliseconds: 500)
        var detector = StallDetector(timeoutNanoseconds: 2_000_000_000)
        let second: UInt64 = 1_000_000_000
        _ = reader.sample(
            Self.statistics(bufferPackets: 1, bufferBytes: 1316, handedPackets: 500, handedBytes: 658_000), connection: 1, queuedMilliseconds: 0)
        let first = detector.observe(pending: true, acknowledged: reader.acknowledged, at: 10 * second)
        #expect(!first)
        // 1.5 s later: 150 more handed, all still buffered.
        _ = reader.sample(
            Self.statistics(bufferPackets: 151, bufferBytes: 198_716, handedPackets: 650, handedBytes: 855_400), connection: 1, queuedMilliseconds: 0)
        let waiting = detector.observe(pending: true, acknowledged: reader.acknowledged, at: 11_500_000_000)
        #expect(!waiting)
        // 2 s: libsrt dropped the 100 oldest (too late) in 9 events; its buffer shrank, nothing was acknowledged.
        _ = reader.sample(
            Self.statistics(
                bufferPackets: 101, bufferBytes: 132_916, handedPackets: 700, handedBytes: 921_200, droppedPackets: 9, droppedBytes: 131_600),
            connection: 1, queuedMilliseconds: 0)
        #expect(reader.acknowledged == 656_684)
        let stalled = detector.observe(pending: true, acknowledged: reader.acknowledged, at: 12 * second)
        #expect(stalled)
        #expect(detector.waitingSince == 10 * second)
    }

    /// The throttle test's case in figures: 1200 kbit/s made, a link that carries 600. The
    /// controller gets no unsent bytes and no queue, only SRT's send buffer growing past the round
    /// trip, and lowers to 80 % of what was acknowledged while it grew, before the buffer reaches
    /// the 500 ms latency. Without the send buffer (`transportWaitingMilliseconds` left at 0) it
    /// would see nothing at all.
    @Test func aGrowingSendBufferLowersTheBitrateBeforeTheLatencyIsReached() throws {
        var reader = SRTLinkReader(latencyMilliseconds: 500)
        var controller = AdaptiveBitrateController(ceilingKbps: 1200, floorKbps: 300)
        let tick: UInt64 = 100_000_000
        var handedBytes = 0
        var acknowledgedBytes = 0
        var lowered: (at: UInt64, change: AdaptiveBitrateController.Change, bufferMilliseconds: Int)?
        for step in 1...30 {
            let now = UInt64(step) * tick
            handedBytes += controller.currentKbps * 100 / 8
            acknowledgedBytes += 600 * 100 / 8
            let buffered = handedBytes - acknowledgedBytes
            // The buffer's span is its bytes at the rate they were made.
            let bufferMilliseconds = buffered * 8 / controller.currentKbps + 5
            let statistics = Self.statistics(
                rtt: 5, bufferMilliseconds: bufferMilliseconds, bufferPackets: buffered / 1316 + 1, bufferBytes: buffered,
                handedPackets: handedBytes / 1316 + 1, handedBytes: handedBytes)
            let sample = reader.sample(statistics, connection: 1, queuedMilliseconds: 0)
            let observation = AdaptiveBitrateController.Observation(id: 1, name: "srt://127.0.0.1:9000", link: sample)
            if let change = controller.observe([observation], at: now) {
                lowered = (now, change, bufferMilliseconds)
                break
            }
        }
        let change = try #require(lowered, "never lowered")
        // 7.5 kB a tick more handed than acknowledged: the buffer spans 50 ms a tick more, so the
        // waiting media reads (50 n + 5 − 25) × 2000 / 500 = 200 n − 80 at tick n: busy from the
        // first, the trigger (200) at the second, before the link was busy 0.7 s: lowered early to
        // 80 % of the 600 kbit/s acknowledged over ticks 1…2, at a 105 ms buffer.
        guard case .lowered(1200, let to, _, let linkKbps) = change.change else {
            Issue.record("\(change.change)")
            return
        }
        #expect(linkKbps == 600 && to == 480 && change.at == 2 * tick, "\(change.change) at \(change.at)")
        #expect(change.bufferMilliseconds < 500, "lowered at a send buffer of \(change.bufferMilliseconds) ms")
    }
}

/// The meter's SRT counts over reconnects: libsrt's start again with each socket; the run's do not.
struct SRTLinkTotalsTests {
    @Test func countsAddUpOverConnectionsAndGaugesFollowTheLiveOne() {
        var totals = SRTLinkTotals()
        totals.record(SRTLinkReading(roundTripSeconds: 0.05, sendBufferSeconds: 0.08, sentPackets: 100, retransmittedPackets: 7, droppedPackets: 1), connection: 1)
        totals.record(SRTLinkReading(roundTripSeconds: 0.06, sendBufferSeconds: 0.09, sentPackets: 250, retransmittedPackets: 9, droppedPackets: 2), connection: 1)
        #expect(totals.reading == SRTLinkReading(roundTripSeconds: 0.06, sendBufferSeconds: 0.09, sentPackets: 250, retransmittedPackets: 9, droppedPackets: 2))
        totals.connectionEnded()
        #expect(totals.reading == SRTLinkReading(sentPackets: 250, retransmittedPackets: 9, droppedPackets: 2))
        totals.record(SRTLinkReading(roundTripSeconds: 0.04, sentPackets: 10, lostPackets: 3), connection: 3)
        // A reconnect the thread did not see end: the new number ends the old connection.
        totals.record(SRTLinkReading(roundTripSeconds: 0.04, sentPackets: 20, lostPackets: 4), connection: 3)
        totals.record(SRTLinkReading(roundTripSeconds: 0.03, sentPackets: 5), connection: 4)
        #expect(totals.reading == SRTLinkReading(roundTripSeconds: 0.03, sentPackets: 275, retransmittedPackets: 9, lostPackets: 4, droppedPackets: 2))
    }
}
