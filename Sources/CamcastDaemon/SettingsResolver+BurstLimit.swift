import Encoder
import SRT

/// The encoder's burst bound for SRT outputs (`EncoderSettings.burstLimitSeconds`).
extension SettingsResolver {
    /// A burst at the average rate may take this share of the shortest SRT latency to cross; the
    /// rest is SRT's for resending what the link loses (libsrt's guidance sizes the latency at
    /// four round trips, one for the packet and three for its resends). On tc-tbf at half the
    /// stream's rate with the default buffer (half a second of media), keyframes and the start's
    /// backlog overflowed the link's queue, and their resends came too late (issue 42).
    static let burstShareOfLatency = 4.0

    /// nil when no output (and no group's leg) is SRT: RTMP's buffer stays the rate limit's.
    static func burstLimitSeconds(for outputs: [OutputTarget]) -> Double? {
        guard let shortest = outputs.flatMap(\.srtLatenciesMilliseconds).min() else { return nil }
        return Double(shortest) / 1000 / burstShareOfLatency
    }
}

extension OutputTarget {
    /// The SRT latency of this output, or of each SRT leg of a group.
    var srtLatenciesMilliseconds: [Int] {
        switch self {
        case .srt(_, let options): [options.latencyMilliseconds]
        case .group(let legs, _): legs.flatMap(\.srtLatenciesMilliseconds)
        default: []
        }
    }
}
