import Testing
@testable import CamcastDaemon
@testable import Outputs

/// The RTMP output's one state enum: every transition, and the ones it must refuse.
@Suite("RTMP output state")
struct NetworkOutputStateTests {
    @Test func aConnectionLivesThroughItsStates() {
        var state = NetworkOutputState.idle
        do { let done = state.start(); #expect(done) }
        #expect(state == .connecting(attempt: 1))
        do { let done = state.attemptFailed(); #expect(done) }
        #expect(state == .backingOff(nextAttempt: 2))
        do { let done = state.backoffEnded(); #expect(done) }
        #expect(state == .connecting(attempt: 2))
        do { let done = state.published(at: 7); #expect(done) }
        #expect(state == .streaming(since: 7))
        do { let done = state.lost(); #expect(done) }
        #expect(state == .backingOff(nextAttempt: 1))
        do { let done = state.backoffEnded(); #expect(done) }
        do { let done = state.published(at: 9); #expect(done) }
        state.stop(deadline: 100)
        #expect(state == .draining(deadline: 100))
        state.drained()
        #expect(state == .finished(.stopped))
    }

    /// A stop in every state: a stream drains; everything else ends at once.
    @Test(arguments: [
        (NetworkOutputState.idle, NetworkOutputState.finished(.stopped)),
        (.connecting(attempt: 3), .finished(.stopped)),
        (.backingOff(nextAttempt: 2), .finished(.stopped)),
        (.streaming(since: 1), .draining(deadline: 50)),
        (.draining(deadline: 20), .draining(deadline: 20)),
        (.finished(.failed("x")), .finished(.failed("x"))),
    ])
    func stopFromEveryState(before: NetworkOutputState, after: NetworkOutputState) {
        var state = before
        state.stop(deadline: 50)
        #expect(state == after)
    }

    /// After a stop, the publisher thread's next step is refused: no connect after a wait (#2),
    /// no stream after a connect that was under way.
    @Test func stepsAfterAStopAreRefused() {
        var state = NetworkOutputState.backingOff(nextAttempt: 2)
        state.stop(deadline: 0)
        do { let done = state.backoffEnded(); #expect(!done) }
        state = .connecting(attempt: 1)
        state.stop(deadline: 0)
        do { let done = state.published(at: 1); #expect(!done) }
        do { let done = state.attemptFailed(); #expect(!done) }
        #expect(state == .finished(.stopped))
    }

    @Test func misuseIsRefused() {
        var state = NetworkOutputState.streaming(since: 1)
        do { let done = state.start(); #expect(!done) }
        do { let done = state.backoffEnded(); #expect(!done) }
        do { let done = state.published(at: 2); #expect(!done) }
        #expect(state == .streaming(since: 1))
        state = .idle
        do { let done = state.lost(); #expect(!done) }
        do { let done = state.fail("gone"); #expect(done) }
        do { let done = state.fail("again"); #expect(!done) }
        #expect(state == .finished(.failed("gone")))
    }

    @Test func aLossWhileDrainingEndsTheStop() {
        var state = NetworkOutputState.draining(deadline: 5)
        do { let done = state.lost(); #expect(!done) }
        #expect(state == .finished(.stopped))
    }
}
