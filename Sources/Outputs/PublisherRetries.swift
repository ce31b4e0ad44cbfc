import Media
import Telemetry

/// What a network output's publisher thread does between connections, for RTMPOutput and
/// SRTOutput alike: a failed attempt or a lost connection suspends the queue (frames for no
/// connection are discarded, never replayed), is counted on the meter, and either ends the output
/// (a stop came, or the policy gives up: then the pipeline is told) or waits the schedule's delay.
/// Used by the publisher thread only; the output's state (a lock, not copyable) is lent to each step.
struct PublisherRetries {
    let output: String
    let queue: SendQueue
    let meter: OutputMeter
    let policy: ReconnectPolicy
    let onFailure: @Sendable (OutputFailure) -> Void
    private var schedule: ReconnectSchedule
    /// Failed attempts since the last publish.
    private(set) var failures = 0
    /// The queue discarded since it last fed a connection: the next one asks for a keyframe. False
    /// until the first failure, so a first connection sends from the run's first frame.
    private var suspended = false

    init(
        output: String, queue: SendQueue, meter: OutputMeter, policy: ReconnectPolicy,
        onFailure: @escaping @Sendable (OutputFailure) -> Void
    ) {
        self.output = output
        self.queue = queue
        self.meter = meter
        self.policy = policy
        self.onFailure = onFailure
        schedule = ReconnectSchedule(policy: policy)
    }

    /// An attempt failed as `failure` (`reason`: the metric's fixed word, `message`: the error in
    /// words). The wait before the next attempt, or nil: the output ends.
    mutating func attemptFailed(
        _ failure: ReconnectSchedule.Failure, reason: String, message: String, state: borrowing Lock<NetworkOutputState>
    ) -> Double? {
        suspend()
        failures += 1
        meter.attemptFailed(reason: reason, message: message)
        if policy.givesUp(after: failures) {
            fail(OutputFailure(output: output, reason: policy.isEnabled ? "gave up after \(failures) attempts: \(message)" : message), state: state)
            return nil
        }
        guard state.withLock({ $0.attemptFailed() }) else { return nil }
        meter.enter(.retrying)
        return schedule.delay(after: failure)
    }

    /// A live connection of `upSeconds` was lost (`message`: why). The wait before reconnecting,
    /// or nil: the output ends (a stop, which the loss ends at once, or no reconnecting at all).
    mutating func lost(afterSeconds upSeconds: Double, message: String, state: borrowing Lock<NetworkOutputState>) -> Double? {
        suspend()
        guard policy.isEnabled else {
            fail(OutputFailure(output: output, reason: message), state: state)
            return nil
        }
        guard state.withLock({ $0.lost() }) else { return nil }
        meter.enter(.retrying, error: "connection lost: \(message)")
        return schedule.delay(after: .lost(afterSeconds: upSeconds))
    }

    /// A connection published: the failures before it start again from zero, the queue takes
    /// frames again from the next keyframe, and `requestKeyframe` asks for one at once after an
    /// outage (frames encoded before it could not be decoded on this connection).
    mutating func published(requestKeyframe: () -> Void) {
        failures = 0
        schedule.published()
        queue.askForKeyframes(true)
        if suspended {
            queue.resume()
            requestKeyframe()
        }
    }

    /// Waits `seconds` unless stopped first; true if the next attempt may start.
    func waitBeforeRetry(seconds: Double, state: borrowing Lock<NetworkOutputState>) -> Bool {
        _ = queue.waitForClose(seconds: seconds)
        return state.withLock { $0.backoffEnded() }
    }

    /// Ends the output for good and tells the pipeline.
    func fail(_ failure: OutputFailure, state: borrowing Lock<NetworkOutputState>) {
        guard state.withLock({ $0.fail("\(failure)") }) else { return }
        meter.enter(.failed, error: failure.reason)
        queue.close()
        queue.discardAll()
        onFailure(failure)
    }

    private mutating func suspend() {
        queue.suspend()
        suspended = true
    }
}
