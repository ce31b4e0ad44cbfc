import Media

/// The one place that decides "skip until a keyframe" (design invariant 1): a new stream — a
/// file, an RTMP connection, a send queue after an overflow — begins at a keyframe and nothing
/// before it; a stream under way sends a new decoder configuration when it changes.
///
/// It remembers only the configuration it last let through, which is how it knows both whether
/// the stream has started and whether the configuration changed; the packets carry their own.
struct KeyframeGate: Sendable {
    enum Admission: Equatable, Sendable {
        /// Not before a keyframe.
        case skip
        /// The first packet of a stream (a keyframe): put the stream's setup in front of it.
        case start
        /// The decoder configuration changed: put the new one in front of the packet.
        case configurationChanged
        case pass
    }

    private var configuration: DecoderConfiguration?

    var isStreaming: Bool { configuration != nil }

    mutating func admit(_ packet: MediaPacket) -> Admission {
        guard let current = configuration else {
            guard packet.isKeyframe else { return .skip }
            configuration = packet.decoderConfiguration
            return .start
        }
        guard packet.decoderConfiguration == current else {
            configuration = packet.decoderConfiguration
            return .configurationChanged
        }
        return .pass
    }

    /// The stream starts again (a new connection, a dropped run): the next keyframe starts it.
    mutating func restart() {
        configuration = nil
    }
}
