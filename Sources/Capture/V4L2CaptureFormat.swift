import Media

/// What a V4L2 source delivers, as negotiated with the driver when it started.
public struct V4L2CaptureFormat: Sendable, Hashable, CustomStringConvertible {
    /// The format the device sends (MJPEG, YUYV, …).
    public var devicePixelFormat: PixelFormat
    /// The format of delivered frames: the device's, except MJPEG, which is decoded to NV12.
    public var pixelFormat: PixelFormat
    public var size: VideoSize
    /// The rate the driver granted (or the one asked for, if the driver cannot set it).
    public var frameRate: FrameRate

    public init(devicePixelFormat: PixelFormat, pixelFormat: PixelFormat, size: VideoSize, frameRate: FrameRate) {
        self.devicePixelFormat = devicePixelFormat
        self.pixelFormat = pixelFormat
        self.size = size
        self.frameRate = frameRate
    }

    public var description: String {
        let conversion = devicePixelFormat == pixelFormat ? "" : " (from \(devicePixelFormat.rawValue))"
        return "\(pixelFormat.rawValue)\(conversion) \(size)@\(frameRate)"
    }
}
