internal import CV4L2

/// What a V4L2 node says it can do: `VIDIOC_QUERYCAP` (Linux media API, "ioctl VIDIOC_QUERYCAP",
/// `struct v4l2_capability`), already reduced to the node's own `device_caps` when the driver
/// reports them (a physical device's `capabilities` cover all its nodes).
public struct V4L2Capabilities: Sendable, Hashable {
    public var driver: String
    public var card: String
    public var busInfo: String
    /// The node's capability bits (`V4L2_CAP_*`).
    public var bits: UInt32

    public var canCaptureSinglePlanar: Bool { bits & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 }
    public var canCaptureMultiPlanar: Bool { bits & UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE) != 0 }
    public var canCapture: Bool { canCaptureSinglePlanar || canCaptureMultiPlanar }
    public var canStream: Bool { bits & UInt32(V4L2_CAP_STREAMING) != 0 }

    /// Single-planar is preferred where both exist: same frames, simpler buffers.
    public var bufferType: V4L2BufferType { canCaptureSinglePlanar ? .videoCapture : .videoCaptureMultiPlanar }

    /// A mem2mem node (an encoder, decoder or scaler): frames go in on its output queue and come
    /// back on its capture queue. Drivers set only the M2M bit for that pair, not the capture and
    /// output bits, so `canCapture` (a camera) stays false for it.
    public var isMemoryToMemory: Bool { bits & UInt32(V4L2_CAP_VIDEO_M2M | V4L2_CAP_VIDEO_M2M_MPLANE) != 0 }
    public var canOutputSinglePlanar: Bool { bits & UInt32(V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_VIDEO_M2M) != 0 }
    public var canOutputMultiPlanar: Bool { bits & UInt32(V4L2_CAP_VIDEO_OUTPUT_MPLANE | V4L2_CAP_VIDEO_M2M_MPLANE) != 0 }
    public var canOutput: Bool { canOutputSinglePlanar || canOutputMultiPlanar }

    /// The queue frames are written to, single-planar preferred as for capture; nil on a node
    /// that takes no frames (a camera).
    public var outputBufferType: V4L2BufferType? {
        canOutputSinglePlanar ? .videoOutput : canOutputMultiPlanar ? .videoOutputMultiPlanar : nil
    }

    /// Human-readable names of the bits that matter to a capture or output user.
    public var names: [String] {
        let known: [(UInt32, String)] = [
            (UInt32(V4L2_CAP_VIDEO_CAPTURE), "video-capture"),
            (UInt32(V4L2_CAP_VIDEO_CAPTURE_MPLANE), "video-capture-mplane"),
            (UInt32(V4L2_CAP_VIDEO_OUTPUT), "video-output"),
            (UInt32(V4L2_CAP_VIDEO_OUTPUT_MPLANE), "video-output-mplane"),
            (UInt32(V4L2_CAP_VIDEO_M2M), "video-m2m"),
            (UInt32(V4L2_CAP_VIDEO_M2M_MPLANE), "video-m2m-mplane"),
            (UInt32(V4L2_CAP_META_CAPTURE), "metadata-capture"),
            (UInt32(V4L2_CAP_READWRITE), "read-write"),
            (UInt32(V4L2_CAP_STREAMING), "streaming"),
        ]
        return known.filter { bits & $0.0 != 0 }.map(\.1)
    }

    public init(driver: String, card: String, busInfo: String, bits: UInt32) {
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.bits = bits
    }

    init(_ raw: v4l2_capability) {
        let useDeviceCaps = raw.capabilities & V4L2_CAP_DEVICE_CAPS != 0
        self.init(
            driver: Self.string(raw.driver), card: Self.string(raw.card), busInfo: Self.string(raw.bus_info),
            bits: useDeviceCaps ? raw.device_caps : raw.capabilities)
    }

    /// Decodes a fixed-size, NUL-padded C char array imported as a tuple.
    static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
