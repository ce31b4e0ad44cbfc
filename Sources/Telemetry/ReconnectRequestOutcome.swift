/// What became of a server's reconnect request (Enhanced RTMP v2): a label value of
/// `camcast_output_reconnect_requests_total`.
public enum ReconnectRequestOutcome: String, CaseIterable, Sendable {
    /// The stream moved to the new connection at a keyframe.
    case switched
    /// The request named an address Camcast will not use (not RTMP, or one that drops TLS).
    case refused
    /// The new address could not be connected to or published on: the stream stayed.
    case failed
}
