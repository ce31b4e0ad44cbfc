/// The waits of one RTMP output between connection attempts, by what went wrong (issue 14 #1).
///
/// Failures come in two classes:
/// - cheap: nothing answered, or the connection was lost after it had been up a while (refused,
///   unreachable, DNS, timeout, a server that went away). Retrying costs the server nothing, and
///   a server that comes back must be published to at once, so these waits grow from the
///   policy's first wait only up to `cheapCeilingSeconds`, jittered.
/// - expensive: the server did the handshake and refused the publish, or dropped the connection
///   at once after it. Retrying costs the server work (and may be an operator's deny), so these
///   follow the policy's full exponential backoff.
///
/// A successful publish resets the cheap waits; the expensive ones reset only once a connection
/// stayed up for the policy's `healthyAfterSeconds`, so a server that accepts and drops at once
/// is still not hammered.
struct ReconnectSchedule {
    enum Failure: Equatable {
        /// Could not reach a server that would talk (refused, unreachable, timeout, handshake).
        case unreachable
        /// The server talked and said no (connect or publish refused, bad credentials).
        case refused
        /// A connection that was up for `seconds` was lost.
        case lost(afterSeconds: Double)
    }

    /// The longest wait after a cheap failure: with the downward jitter, an attempt every
    /// 1.5–2 s while a server is down, so one that comes back is published to within 2.5 s.
    static let cheapCeilingSeconds = 2.0
    /// A connection lost sooner than this after its publish started counts as dropped at once.
    static let droppedAtOnceSeconds = 1.0
    /// For this long after Camcast itself cut a connection whose peer went silent (the send
    /// timeout), "already publishing" is retried on the cheap waits: the server still holds the
    /// old publish, which it cannot have seen end (nothing crossed the dead path), until it sends
    /// on that connection and draws a RST, or times it out. nginx-rtmp pings a silent publisher
    /// 1–2 min after its last data (`ping 1m`, seen: 20–40 s with `ping 20s`); SRS times a
    /// silent publisher out after 30 s. About two minutes covers those. The name is freed the
    /// moment the server ends that session, so the stream comes back within one cheap wait of
    /// it. Past the window (or with no cut of our own) it is an ordinary refusal.
    static let stalePublishWindowSeconds = 120.0

    let policy: ReconnectPolicy
    private var cheap: Backoff
    private var expensive: Backoff

    init(policy: ReconnectPolicy) {
        self.policy = policy
        var cheapPolicy = policy
        cheapPolicy.maxDelaySeconds = min(policy.maxDelaySeconds, Self.cheapCeilingSeconds)
        cheap = Backoff(policy: cheapPolicy)
        expensive = Backoff(policy: policy)
    }

    /// The class of an error from a connection attempt; `secondsSinceOwnCut`: how long ago
    /// Camcast cut a dead connection (nil: it did not, or a publish has succeeded since).
    static func failure(for error: RTMPFailureKind, secondsSinceOwnCut: Double? = nil) -> Failure {
        switch error {
        case .cheap: .unreachable
        case .expensive: .refused
        case .nameHeld: secondsSinceOwnCut.map { $0 < stalePublishWindowSeconds } == true ? .unreachable : .refused
        }
    }

    /// The wait before the next attempt after `failure`; advances that class's sequence.
    mutating func delay<G: RandomNumberGenerator>(after failure: Failure, using generator: inout G) -> Double {
        switch failure {
        case .unreachable:
            return cheap.nextDelay(using: &generator)
        case .refused:
            return expensive.nextDelay(using: &generator)
        case .lost(let seconds):
            if seconds < Self.droppedAtOnceSeconds { return expensive.nextDelay(using: &generator) }
            if seconds >= policy.healthyAfterSeconds { expensive.reset() }
            return cheap.nextDelay(using: &generator)
        }
    }

    mutating func delay(after failure: Failure) -> Double {
        var generator = SystemRandomNumberGenerator()
        return delay(after: failure, using: &generator)
    }

    /// A publish started: the server is there, so the next cheap failure starts from the first wait.
    mutating func published() {
        cheap.reset()
    }
}

/// The facts of an `RTMPError` that decide its class, apart from librtmp (tests build them directly).
enum RTMPFailureKind: Equatable {
    case cheap
    case expensive
    /// The server still holds the stream name ("already publishing"): expensive, except soon
    /// after a connection Camcast cut itself (`ReconnectSchedule.stalePublishWindowSeconds`).
    case nameHeld
}
