/// One coded unit on its way from an encoder to the outputs, in no container's form: each output
/// muxes it for itself (FLV tags for a file or an RTMP server, start codes for an Annex-B file).
///
/// Every packet carries the decoder configuration in force for it, so no output has to remember
/// one: an output that starts (a new file, a new RTMP connection) takes it from its first keyframe,
/// and one that streams sends a new one when it differs from the previous packet's.
public struct MediaPacket: Sendable, Equatable {
    public enum Codec: Sendable, Hashable {
        /// H.264 / AVC: units are NAL units; the configuration is [SPS, PPS].
        case h264
        /// H.265 / HEVC: units are NAL units; the configuration is [VPS, SPS, PPS].
        case h265
        /// AAC-LC: one raw AAC frame (no ADTS header) in `units`; the configuration is
        /// [AudioSpecificConfig]. Every audio packet is a keyframe.
        case aac

        public var mediaKind: MediaKind {
            switch self {
            case .h264, .h265: .video
            case .aac: .audio
            }
        }
    }

    /// Which track a packet belongs to: outputs interleave the two by timestamp.
    public enum MediaKind: Sendable, Hashable {
        case video
        case audio
    }

    public var codec: Codec
    /// What a decoder needs before the first picture (H.264: SPS and PPS).
    public var decoderConfiguration: DecoderConfiguration
    /// A decoder (or a new viewer) can start here: an IDR picture (H.264), an IDR/IRAP picture
    /// with closed GOP (H.265); every AAC frame.
    public var isKeyframe: Bool
    /// Decode and presentation time in milliseconds of stream time (0 at the run's first
    /// picture, unless a test moved the origin), 64 bits: it never wraps. Outputs whose format
    /// has 32-bit timestamps wrap them themselves.
    public var dts: Int64
    public var pts: Int64
    /// When the frame was captured, in milliseconds of the capture clock (CLOCK_MONOTONIC): for
    /// latency figures and for a send queue's bound in media time.
    public var captureTime: Int64
    /// The coded data (H.264: the access unit's NAL units without start codes; parameter sets
    /// and access unit delimiters travel in `decoderConfiguration` or not at all).
    public var units: [[UInt8]]

    public init(
        codec: Codec, decoderConfiguration: DecoderConfiguration, isKeyframe: Bool, dts: Int64, pts: Int64,
        captureTime: Int64, units: [[UInt8]]
    ) {
        self.codec = codec
        self.decoderConfiguration = decoderConfiguration
        self.isKeyframe = isKeyframe
        self.dts = dts
        self.pts = pts
        self.captureTime = captureTime
        self.units = units
    }

    public var mediaKind: MediaKind { codec.mediaKind }

    /// pts − dts, as containers want it.
    public var compositionTimeOffset: Int64 { pts - dts }
}

/// The out-of-band setup a decoder needs: for H.264 the SPS and PPS NAL units (header bytes
/// included), which an AVCDecoderConfigurationRecord or an Annex-B keyframe carries; for H.265
/// the VPS, SPS and PPS (an HEVCDecoderConfigurationRecord); for AAC the AudioSpecificConfig.
public struct DecoderConfiguration: Sendable, Hashable {
    public var parameterSets: [[UInt8]]

    public init(parameterSets: [[UInt8]]) {
        self.parameterSets = parameterSets
    }
}
