/// What `VIDIOC_S_FMT` wrote back (`struct v4l2_pix_format`, or `v4l2_pix_format_mplane` and its
/// first plane): drivers adjust a request to what they can do rather than refuse it, so this, not
/// the request, is what the device will send (Linux media API, "Data Formats").
public struct V4L2GrantedFormat: Sendable, Hashable {
    public var fourCC: UInt32
    public var width: Int
    public var height: Int
    /// Stride of the first plane; 0 when the driver leaves it to the format (compressed ones).
    public var bytesPerLine: Int
    /// Bytes the driver needs for one frame (for compressed formats, the largest one).
    public var sizeImage: Int
    /// Separate memory planes of a multi-planar format (`num_planes`); always 1 on the
    /// single-planar API, where the planes of a frame lie in one buffer.
    public var planeCount: Int

    public init(fourCC: UInt32, width: Int, height: Int, bytesPerLine: Int, sizeImage: Int, planeCount: Int) {
        self.fourCC = fourCC
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine
        self.sizeImage = sizeImage
        self.planeCount = planeCount
    }
}
