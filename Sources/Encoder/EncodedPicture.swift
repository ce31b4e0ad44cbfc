import Media

/// One coded picture as the encoder produced it: every NAL unit of the access unit, in order.
public struct EncodedPicture: Sendable {
    /// H.264 (x264) or H.265 (x265): says how to read `units` and `decoderConfiguration`.
    public var codec: VideoCodec
    /// All NAL units of the picture (e.g. SEI, parameter sets, IDR slice on a keyframe), header
    /// bytes first, without start code or length prefix; never assume one.
    public var units: [[UInt8]]
    /// An IDR picture: a decoder (or a new RTMP viewer) can start here.
    public var isKeyframe: Bool
    /// Presentation time in milliseconds, on the clock of the input frames'
    /// `MonotonicTime.milliseconds`.
    public var pts: Int64
    /// Decode time in milliseconds, same clock; equals `pts` without B-frames. Composition time
    /// offset = pts − dts.
    public var dts: Int64
    /// The parameter sets in force for this picture: [SPS, PPS] (H.264), [VPS, SPS, PPS] (H.265).
    public var decoderConfiguration: DecoderConfiguration

    public init(
        codec: VideoCodec, units: [[UInt8]], isKeyframe: Bool, pts: Int64, dts: Int64,
        decoderConfiguration: DecoderConfiguration
    ) {
        self.codec = codec
        self.units = units
        self.isKeyframe = isKeyframe
        self.pts = pts
        self.dts = dts
        self.decoderConfiguration = decoderConfiguration
    }

    /// An H.264 picture from typed NAL units and its SPS/PPS.
    public init(
        nalUnits: [NALUnit], isKeyframe: Bool, pts: Int64, dts: Int64,
        parameterSets: H264ParameterSets
    ) {
        self.init(
            codec: .h264, units: nalUnits.map(\.bytes), isKeyframe: isKeyframe, pts: pts, dts: dts,
            decoderConfiguration: DecoderConfiguration(parameterSets: [parameterSets.sps, parameterSets.pps]))
    }

    /// Composition time offset (pts − dts) in milliseconds, as FLV's CompositionTime wants it.
    public var compositionTimeOffset: Int64 { pts - dts }

    /// Bytes of coded data (every unit, no prefixes).
    public var byteCount: Int { units.reduce(0) { $0 + $1.count } }

    /// The units a packet carries: parameter sets travel in the decoder configuration, access
    /// unit delimiters not at all.
    public var pictureUnits: [[UInt8]] { units.filter { !codec.isOutOfBand($0) } }

    /// The H.264 NAL units, typed (empty for H.265: its header is read by `HEVCNALUnitType`).
    public var nalUnits: [NALUnit] {
        guard codec == .h264 else { return [] }
        return units.compactMap { try? NALUnit(bytes: $0) }
    }

    /// The H.264 SPS/PPS in force (empty for H.265, whose configuration has three sets).
    public var parameterSets: H264ParameterSets {
        let sets = decoderConfiguration.parameterSets
        guard codec == .h264, sets.count == 2 else { return H264ParameterSets(sps: [], pps: []) }
        return H264ParameterSets(sps: sets[0], pps: sets[1])
    }
}
