import Media
import Overlay

/// What to capture from a V4L2 device and how to ride out its failures.
public struct V4L2SourceSettings: Sendable, Hashable {
    /// `/dev/videoN`, or better a stable `/dev/v4l/by-id/…` link (survives re-plugging).
    public var devicePath: String
    /// The format to ask for; nil = auto (NV12/I420, then YUYV/UYVY, then MJPEG).
    public var pixelFormat: PixelFormat?
    /// The size to ask for; the driver may grant the nearest it has (logged).
    public var size: VideoSize
    public var frameRate: FrameRate
    /// mmap buffers to ask the driver for (it may grant more or fewer).
    public var bufferCount: Int
    /// How often to try opening the device again while it is gone or failing.
    public var reopenIntervalSeconds: Double
    /// A live device that delivers no frame for this long counts as failing (no signal, stuck driver).
    public var pollTimeoutSeconds: Double
    /// What to show while the camera is gone and no good frame of it is at hand; nil for the flat slate.
    public var slate: SlateSettings?
    /// How long the last good frame stands in for a camera that is gone before the slate does.
    public var lastGoodFrameSeconds: Double = 5

    public init(
        devicePath: String, pixelFormat: PixelFormat? = nil, size: VideoSize, frameRate: FrameRate,
        bufferCount: Int = 4, reopenIntervalSeconds: Double = 1, pollTimeoutSeconds: Double = 2
    ) {
        self.devicePath = devicePath
        self.pixelFormat = pixelFormat
        self.size = size
        self.frameRate = frameRate
        self.bufferCount = bufferCount
        self.reopenIntervalSeconds = reopenIntervalSeconds
        self.pollTimeoutSeconds = pollTimeoutSeconds
    }

    /// Rejects values no device could satisfy, before anything is opened.
    func validate() throws(CaptureError) {
        guard !devicePath.isEmpty else { throw .invalidSettings("device path is empty") }
        if let reason = size.unsupportedReason(requiringEven: false) {
            throw .invalidSize(width: size.width, height: size.height, reason: reason)
        }
        guard frameRate.isSupported else { throw .invalidFrameRate(frameRate.description) }
        guard (2...32).contains(bufferCount) else { throw .invalidSettings("buffer count \(bufferCount) must be from 2 to 32") }
        guard reopenIntervalSeconds > 0, reopenIntervalSeconds.isFinite else {
            throw .invalidSettings("reopen interval \(reopenIntervalSeconds) s must be positive")
        }
        guard pollTimeoutSeconds > 0, pollTimeoutSeconds.isFinite else {
            throw .invalidSettings("poll timeout \(pollTimeoutSeconds) s must be positive")
        }
    }
}
