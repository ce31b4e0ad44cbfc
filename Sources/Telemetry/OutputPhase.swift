/// Where one output is in its life, as an operator reads it. One Prometheus series per phase
/// (`camcast_output_state{state="…"}`), so every name here is part of the metrics' contract.
public enum OutputPhase: String, Sendable, CaseIterable, Codable {
    /// Not started yet.
    case starting
    /// A connection attempt is under way (RTMP).
    case connecting
    /// Publishing to the server (RTMP).
    case streaming
    /// Waiting before the next attempt after a failure (RTMP).
    case retrying
    /// Sending what is queued before the end (a stop).
    case draining
    /// Writing a file.
    case writing
    /// A file output did all it was asked to (`max_frames`).
    case complete
    /// A recording waits for disk space (it resumes by itself); not up, so /healthz says why.
    case paused
    /// Idle on purpose: outside its schedule's windows (issue 44). Not up, and not a problem:
    /// /healthz and the alert rules stay quiet.
    case scheduled
    /// Ended for good after a failure its policy does not retry.
    case failed
    /// Ended by a stop.
    case stopped

    /// Whether the output does its job now: the one truth behind `up`, `/healthz` and the status line.
    public var isUp: Bool { self == .streaming || self == .writing || self == .complete || self == .draining }
}
