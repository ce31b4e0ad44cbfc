extension FLVTag {
    /// The body of a video tag, legacy AVC or Enhanced RTMP, for code that inspects what was
    /// written (a recording's last tag, a stream's first keyframe) whatever the codec. Throws
    /// `unknownTagType` for a tag that is not video.
    public func videoData() throws(FLVError) -> FLVVideoData {
        guard type == .video else { throw .unknownTagType(type.rawValue) }
        return try FLVVideoData(parsing: body)
    }
}
