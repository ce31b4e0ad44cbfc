/// `enum v4l2_buf_type` values Camcast uses (Linux media API, "Buffers", `V4L2_BUF_TYPE_*`).
public enum V4L2BufferType: UInt32, Sendable {
    case videoCapture = 1
    case videoCaptureMultiPlanar = 9

    public var isMultiPlanar: Bool { self == .videoCaptureMultiPlanar }
}
