/// One coded picture as x264 produced it: every NAL unit of the access unit, in order.
public struct EncodedPicture: Sendable {
    /// All NAL units of the picture (e.g. SEI, SPS, PPS, IDR slice on a keyframe); never assume one.
    public var nalUnits: [NALUnit]
    /// An IDR picture: a decoder (or a new RTMP viewer) can start here.
    public var isKeyframe: Bool
    /// Presentation time in milliseconds, on the clock of the input frames'
    /// `MonotonicTime.milliseconds`.
    public var pts: Int64
    /// Decode time in milliseconds, same clock; equals `pts` without B-frames. Composition time
    /// offset = pts − dts.
    public var dts: Int64
    /// The SPS/PPS in force for this picture.
    public var parameterSets: H264ParameterSets
    /// True on the first picture and whenever the SPS/PPS differ from the previous picture's:
    /// a muxer must send a new sequence header.
    public var parameterSetsChanged: Bool
    /// 0 for the first picture the session delivered, then counting up in output order.
    public var frameNumber: Int64

    public init(
        nalUnits: [NALUnit], isKeyframe: Bool, pts: Int64, dts: Int64,
        parameterSets: H264ParameterSets, parameterSetsChanged: Bool, frameNumber: Int64
    ) {
        self.nalUnits = nalUnits
        self.isKeyframe = isKeyframe
        self.pts = pts
        self.dts = dts
        self.parameterSets = parameterSets
        self.parameterSetsChanged = parameterSetsChanged
        self.frameNumber = frameNumber
    }

    /// Composition time offset (pts − dts) in milliseconds, as FLV's CompositionTime wants it.
    public var compositionTimeOffset: Int64 { pts - dts }
}
