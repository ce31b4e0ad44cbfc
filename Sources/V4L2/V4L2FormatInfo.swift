/// A pixel format a device offers (`VIDIOC_ENUM_FMT`, `struct v4l2_fmtdesc`) and its sizes.
public struct V4L2FormatInfo: Codable, Sendable, Hashable {
    /// The four-character code, e.g. `YUYV`, `MJPG`.
    public var fourCC: String
    /// The driver's description, e.g. "YUYV 4:2:2".
    public var description: String
    public var compressed: Bool
    /// Whether Camcast accepts it (a `PixelFormat` exists for it).
    public var supported: Bool
    public var sizes: [V4L2FrameSizeInfo]

    public init(fourCC: String, description: String, compressed: Bool, supported: Bool, sizes: [V4L2FrameSizeInfo]) {
        self.fourCC = fourCC
        self.description = description
        self.compressed = compressed
        self.supported = supported
        self.sizes = sizes
    }
}
