import RTMP

/// The whole life of one network output (RTMP, SRT), in one enum behind one lock (each output's `state`), with
/// transitions that reject what cannot happen (grpc-swift-2's `GRPCServer` state): the publisher
/// thread asks before every step, and a stop from any thread is one transition, so a stop during a
/// backoff wait can never be followed by a connect (issue 14 #2).
///
/// The live connection's watch (for the watchdog) lives in the states that have a connection.
enum NetworkOutputState: Equatable, Sendable {
    /// Made, thread not started.
    case idle
    /// An attempt is under way (`attempt` counts from 1 since the last publish), on `publisher`
    /// once it is made (a stop cancels its connect).
    case connecting(attempt: Int, publisher: Attempt? = nil)
    /// Publishing; `since` is CLOCK_MONOTONIC ns.
    case streaming(since: UInt64, watch: Watch? = nil)
    /// Waiting before attempt `nextAttempt`.
    case backingOff(nextAttempt: Int)
    /// Stop asked while streaming: sending what is queued until `deadline` (CLOCK_MONOTONIC ns),
    /// then the end-of-sequence tag.
    case draining(deadline: UInt64, watch: Watch? = nil)
    /// Nothing more happens; the publisher thread closes what it holds and ends.
    case finished(Outcome)

    enum Outcome: Equatable, Sendable {
        case stopped
        case failed(String)
    }

    /// The publisher of the attempt under way, compared by identity (one per attempt).
    struct Attempt: Equatable, @unchecked Sendable {
        // @unchecked: only `cancelConnect()` is called through this, which ConnectCancelling
        // promises is safe from any thread; the publisher thread alone uses the rest. (It cannot be
        // checked: `RTMPPublisher` is not Sendable, and need not be, being one thread's at a time.)
        let publisher: any ConnectCancelling

        static func == (lhs: Attempt, rhs: Attempt) -> Bool { lhs.publisher === rhs.publisher }
    }

    /// A connection's watch, compared by identity (one per connection).
    struct Watch: Equatable, Sendable {
        let connection: RTMPConnectionWatch

        static func == (lhs: Watch, rhs: Watch) -> Bool { lhs.connection === rhs.connection }
    }

    /// The live connection's watch: while streaming or draining.
    var watch: RTMPConnectionWatch? {
        switch self {
        case .streaming(_, let watch), .draining(_, let watch): watch?.connection
        default: nil
        }
    }

    var isFinished: Bool {
        if case .finished = self { return true }
        return false
    }

    /// The output streamed (`hasStreamed`) and does not now: the server or the link went away, a
    /// reconnect is under way or was given up. What viewers miss, for an outage recording. An
    /// output that has not streamed yet is not down, so a start does not count as an outage, nor
    /// does one being stopped (the end of the run, a reload that removes it).
    func isInterrupted(hasStreamed: Bool) -> Bool {
        guard hasStreamed else { return false }
        switch self {
        case .streaming, .draining, .finished(.stopped): return false
        default: return true
        }
    }

    /// The publisher thread starts.
    mutating func start() -> Bool {
        guard case .idle = self else { return false }
        self = .connecting(attempt: 1)
        return true
    }

    /// An attempt published. False if a stop came during the connect: close it again.
    mutating func published(at now: UInt64, watch: RTMPConnectionWatch? = nil) -> Bool {
        guard case .connecting = self else { return false }
        self = .streaming(since: now, watch: watch.map(Watch.init))
        return true
    }

    /// The stream moved to another connection (a server's reconnect request): its watch from now.
    mutating func handedOver(to watch: RTMPConnectionWatch?) {
        switch self {
        case .streaming(let since, _): self = .streaming(since: since, watch: watch.map(Watch.init))
        case .draining(let deadline, _): self = .draining(deadline: deadline, watch: watch.map(Watch.init))
        default: break
        }
    }

    /// An attempt failed and will be retried. False if a stop came during the connect.
    mutating func attemptFailed() -> Bool {
        guard case .connecting(let attempt, _) = self else { return false }
        self = .backingOff(nextAttempt: attempt + 1)
        return true
    }

    /// A live connection was lost and will be retried. While draining, the stop simply ends.
    mutating func lost() -> Bool {
        switch self {
        case .streaming:
            self = .backingOff(nextAttempt: 1)
            return true
        case .draining:
            self = .finished(.stopped)
            return false
        default:
            return false
        }
    }

    /// The attempt's publisher is made. False if a stop came meanwhile: it is not connected.
    mutating func attempting(with publisher: any ConnectCancelling) -> Bool {
        guard case .connecting(let attempt, _) = self else { return false }
        self = .connecting(attempt: attempt, publisher: Attempt(publisher: publisher))
        return true
    }

    /// The wait is over. False if a stop came during it: no connection is opened.
    mutating func backoffEnded() -> Bool {
        guard case .backingOff(let attempt) = self else { return false }
        self = .connecting(attempt: attempt)
        return true
    }

    /// The output gives up (a failure its policy does not retry).
    mutating func fail(_ reason: String) -> Bool {
        guard !isFinished else { return false }
        self = .finished(.failed(reason))
        return true
    }

    /// Stop, from any state: a stream drains until `deadline`; anything else ends at once.
    /// Returns the publisher of a connect in progress, for the caller to cancel outside the lock.
    @discardableResult
    mutating func stop(deadline: UInt64) -> (any ConnectCancelling)? {
        switch self {
        case .streaming(_, let watch): self = .draining(deadline: deadline, watch: watch)
        case .connecting(_, let attempt):
            self = .finished(.stopped)
            return attempt?.publisher
        case .idle, .backingOff: self = .finished(.stopped)
        case .draining, .finished: break
        }
        return nil
    }

    /// `stop` as `finish` makes it: whether a stream now drains, and the attempt to cancel.
    mutating func stopping(deadline: UInt64) -> (draining: Bool, connecting: (any ConnectCancelling)?) {
        let connecting = stop(deadline: deadline)
        if case .draining = self { return (true, nil) }
        return (false, connecting)
    }

    /// The drain is done (or its deadline passed).
    mutating func drained() {
        if case .draining = self { self = .finished(.stopped) }
    }
}
