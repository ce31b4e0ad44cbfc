/// The one place that decides "skip until a keyframe" (design invariant 1): a new stream — a
/// file, an RTMP connection, a send queue after an overflow, a recorded segment after a pause —
/// begins at a keyframe and nothing before it; a stream under way sends a new decoder
/// configuration when it changes. In Media, beside the packets it reads, so every stage after
/// the encoder uses this one (Outputs' send queue and FLV muxer, Encoder's Annex-B writer,
/// Recording's segment recorder).
///
/// It remembers only the configuration it last let through, which is how it knows both whether
/// the stream has started and whether the configuration changed; the packets carry their own.
///
/// Audio follows its video: an audio packet passes only once the video has started (so a stream
/// and every run after a drop begins at a video keyframe, and audio resumes with it), and the
/// first audio packet of a run, like one whose AudioSpecificConfig changed, is
/// `.configurationChanged` so its sequence header goes first.
public struct KeyframeGate: Sendable {
    public enum Admission: Equatable, Sendable {
        /// Not before a keyframe.
        case skip
        /// The first packet of a stream (a keyframe): put the stream's setup in front of it.
        case start
        /// The decoder configuration changed: put the new one in front of the packet.
        case configurationChanged
        case pass
    }

    private var configuration: DecoderConfiguration?
    /// The audio configuration sent in this run; nil until its sequence header goes out.
    private var audioConfiguration: DecoderConfiguration?

    public init() {}

    public var isStreaming: Bool { configuration != nil }

    /// Whether this run has sent an audio sequence header.
    public var hasAudioConfiguration: Bool { audioConfiguration != nil }

    public mutating func admit(_ packet: MediaPacket) -> Admission {
        if packet.mediaKind == .audio {
            guard configuration != nil else { return .skip }
            guard packet.decoderConfiguration == audioConfiguration else {
                audioConfiguration = packet.decoderConfiguration
                return .configurationChanged
            }
            return .pass
        }
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
    public mutating func restart() {
        configuration = nil
        audioConfiguration = nil
    }

    /// The audio sequence header went out with the video's at the start of the run (the muxer
    /// knew the configuration from audio it skipped): the next audio packet with it just passes.
    public mutating func audioConfigurationSent(_ sent: DecoderConfiguration) {
        audioConfiguration = sent
    }
}
