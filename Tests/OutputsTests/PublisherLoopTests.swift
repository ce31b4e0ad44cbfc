import Logging
import Media
import Synchronization
import Telemetry
import Testing
import TestSupport

@testable import Outputs

/// The one publisher loop every network output runs (RTMP and SRT alike), over a scripted
/// transport of the test's own: what it logs and counts, how it backs off, and that a stop during
/// a wait opens nothing. RTMPOutputTests drive it through RTMP's publisher; the SRT suites through
/// libsrt against srt-live-transmit.
@Suite struct PublisherLoopTests {
    /// A failure as a transport reports one.
    struct FakeFailure: NetworkConnectionError {
        var description: String
        var failure = ReconnectSchedule.Failure.unreachable
        var metricReason = "timeout"
        var uplinkReason: String?
        var isDeadPeerCut = false
        /// What the loop told each failure about Camcast's own last cut.
        let sinceCut = SharedLock<[Double?]>([])

        func reconnectFailure(secondsSinceOwnCut: Double?) -> ReconnectSchedule.Failure {
            sinceCut.withLock { $0.append(secondsSinceOwnCut) }
            return failure
        }
    }

    final class FakeConnection: ConnectCancelling {
        let number: Int
        init(_ number: Int) { self.number = number }
        func cancelConnect() {}
    }

    /// One run of the loop: `connects` answers each attempt in turn (nil: it connects), `streams`
    /// ends each connection in turn (nil: the queue drained after a stop).
    final class Script {
        var connects: [FakeFailure?]
        var streams: [FakeFailure?]
        var made = 0
        var closed = 0
        init(connects: [FakeFailure?], streams: [FakeFailure?]) {
            self.connects = connects
            self.streams = streams
        }
    }

    struct Run {
        let logs: [String]
        let attempts: Int
        let reconnects: Int
        let made: Int
        let closed: Int
        let state: NetworkOutputState
        let meter: OutputMeter
    }

    /// Runs the loop on this thread until it returns. `onFailedConnect` runs as a failed attempt
    /// closes (a stop arriving then lands in the wait that follows).
    static func run(
        _ script: Script, announces: Bool = true, onFailedConnect: (borrowing Lock<NetworkOutputState>, SendQueue) -> Void = { _, _ in }
    ) -> Run {
        let store = RecordingLogHandler.Store()
        let meter = OutputMeter(name: "fake-1", kind: "fake", target: "fake://host")
        let queue = SendQueue(maxSpanMilliseconds: 1000, requestKeyframe: {})
        let state = Lock(NetworkOutputState.idle)
        _ = state.withLock { $0.start() }
        let attempts = Atomic<Int>(0), reconnects = Atomic<Int>(0)
        var retries = PublisherRetries(
            output: "fake://host", queue: queue, meter: meter,
            policy: ReconnectPolicy(initialDelaySeconds: 0.001, maxDelaySeconds: 0.005, jitter: 0), onFailure: { _ in })
        let loop = PublisherLoop(
            transport: "FAKE", output: "fake://host", logger: RecordingLogHandler.logger(store), announcesFirstConnection: announces,
            requestKeyframe: {})
        loop.run(
            retries: &retries, state: state, attempts: attempts, reconnects: reconnects,
            make: { () -> FakeConnection in
                script.made += 1
                return FakeConnection(script.made)
            },
            cancelling: { $0 },
            connect: { _ throws(FakeFailure) in
                if let failure = script.connects.removeFirst() { throw failure }
            },
            close: { _ in
                script.closed += 1
                onFailedConnect(state, queue)
            },
            stream: { _ in
                let end = script.streams.removeFirst()
                if end == nil {
                    // The run's stop: the state drains, then the queue is done.
                    _ = state.withLock { $0.stop(deadline: 0) }
                    state.withLock { $0.drained() }
                }
                return end
            })
        return Run(
            logs: store.all.map(\.message), attempts: attempts.load(ordering: .relaxed), reconnects: reconnects.load(ordering: .relaxed),
            made: script.made, closed: script.closed, state: state.withLock { $0 }, meter: meter)
    }

    @Test func attemptsBackOffPublishReconnectAfterALossAndEndWhenTheQueueDrains() {
        let script = Script(
            connects: [FakeFailure(description: "nobody there"), nil, nil], streams: [FakeFailure(description: "reset by peer"), nil])
        let run = Self.run(script)
        #expect(
            run.logs == ["FAKE connect failed, retrying", "FAKE connected", "FAKE connection lost, reconnecting", "FAKE reconnected"],
            "\(run.logs)")
        #expect(run.attempts == 3 && run.made == 3 && run.closed == 1)
        #expect(run.reconnects == 1)
        #expect(run.state == .finished(.stopped))
        #expect(run.meter.reading().failuresByReason == ["timeout": 1])
    }

    @Test func aTransportThatAnnouncesItselfIsNotAnnouncedTwice() {
        let run = Self.run(Script(connects: [nil, nil], streams: [FakeFailure(description: "lost"), nil]), announces: false)
        #expect(run.logs == ["FAKE connection lost, reconnecting", "FAKE reconnected"], "\(run.logs)")
    }

    @Test func aMissingUplinkIsSaidOnceNotAtEveryAttempt() {
        let absent = FakeFailure(description: "uplink", metricReason: "uplink", uplinkReason: "interface wwan0 is absent")
        let run = Self.run(Script(connects: [absent, absent, absent, nil], streams: [nil]))
        #expect(run.logs == ["interface wwan0 is absent; waiting for it", "FAKE connected"], "\(run.logs)")
        #expect(run.attempts == 4)
    }

    /// A stop that lands while an attempt fails (as a stop cancels a connect): no wait, no other
    /// attempt. (A stop during the wait itself: RTMPOutputTests' stop in every state.)
    @Test func aStopAsAnAttemptFailsOpensNoOtherConnection() {
        let run = Self.run(Script(connects: [FakeFailure(description: "refused"), nil], streams: [nil])) { state, queue in
            _ = state.withLock { $0.stop(deadline: 0) }
            queue.close()
        }
        #expect(run.made == 1 && run.attempts == 1, "made \(run.made) connections")
        #expect(run.state == .finished(.stopped))
    }

    /// RTMP's "already publishing" after Camcast cut a silent connection itself is the old publish
    /// the server still holds: the loop tells the next failures how long ago that cut was, and
    /// forgets it once a publish succeeds.
    @Test func theLoopRemembersItsOwnCutUntilTheNextPublish() {
        let cut = FakeFailure(description: "send timed out", isDeadPeerCut: true)
        let held = FakeFailure(description: "already publishing", failure: .refused, metricReason: "rejected")
        let run = Self.run(
            Script(connects: [held, nil, held, nil, held, nil], streams: [cut, FakeFailure(description: "reset by peer"), nil]))
        let told = held.sinceCut.withLock { $0 }
        #expect(told.count == 3, "\(told)")
        #expect(told.count == 3 && told[0] == nil, "before any cut: \(told)")
        #expect(told.count == 3 && told[1] != nil, "after the cut: \(told)")
        #expect(told.count == 3 && told[2] == nil, "after a publish since the cut: \(told)")
        #expect(run.attempts == 6 && run.reconnects == 2)
    }
}
