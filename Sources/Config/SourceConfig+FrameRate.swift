import Media

extension CamcastConfig.SourceConfig {
    /// `source.fps` as an exact fraction, the way V4L2 and x264 take it: `30` is 30/1 and
    /// `"30000/1001"` is NTSC's 29.97. The same type the pipeline uses.
    public typealias FrameRate = Media.FrameRate
}
