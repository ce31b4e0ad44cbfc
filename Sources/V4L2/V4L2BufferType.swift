/// `enum v4l2_buf_type` values Camcast uses (Linux media API, "Buffers", `V4L2_BUF_TYPE_*`).
/// A capture queue hands frames to us; an output queue takes frames from us (a video output, or
/// the raw-frame side of a mem2mem encoder, whose coded bytes come back on its capture queue).
public enum V4L2BufferType: UInt32, Sendable {
    case videoCapture = 1
    case videoOutput = 2
    case videoCaptureMultiPlanar = 9
    case videoOutputMultiPlanar = 10

    public var isMultiPlanar: Bool { self == .videoCaptureMultiPlanar || self == .videoOutputMultiPlanar }

    /// Buffers we fill and queue, and take back once the driver has read them.
    public var isOutput: Bool { self == .videoOutput || self == .videoOutputMultiPlanar }
}
