import Media

extension CamcastConfig.SourceConfig {
    /// `source.size`, written `WIDTHxHEIGHT` (`1280x720`). The same type the pipeline uses.
    public typealias Size = VideoSize
}
