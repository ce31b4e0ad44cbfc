import Media

/// Something that produces frames on its own thread until stopped.
///
/// `start` returns once the source is producing; `deliver` is called on the source's dedicated
/// thread, one frame at a time, and may block (the encoder runs inside it): a slow consumer makes
/// the source skip frames, as a camera's driver would, instead of queueing them without bound.
///
/// A delivered frame is valid only until `deliver` returns: its bytes may be borrowed from the
/// source (a camera's mapped buffer, see `VideoFrame.isBorrowed`), and the source reuses them
/// afterwards. A consumer that keeps a frame, or hands it to another thread that outlives the
/// call, keeps `frame.owned()` instead.
public protocol FrameSource: AnyObject, Sendable {
    func start(deliver: @escaping @Sendable (VideoFrame) -> Void) throws
    /// Stops producing and waits for the thread to end; `deliver` is not called after it returns.
    func stop()
    /// Frames the source skipped because the consumer did not keep up.
    var skippedFrames: Int { get }
    /// Frames lost before they reached the source: a camera driver that had no free buffer.
    var driverDroppedFrames: Int { get }
    /// Frames that arrived broken and were dropped: MJPEG that did not decode, buffers the driver
    /// flagged as corrupt.
    var badFrames: Int { get }
    /// Why the source sends placeholder frames instead of live ones ("waiting for camera /dev/video0"), nil while live.
    var placeholderReason: String? { get }
    /// Placeholder frames sent so far (the slate while the camera is gone).
    var placeholderFrames: Int { get }
}

extension FrameSource {
    /// Sources without a driver underneath lose nothing before they see it.
    public var driverDroppedFrames: Int { 0 }
    /// Sources that decode nothing receive nothing broken.
    public var badFrames: Int { 0 }
    /// Sources that cannot lose their input never stand in for it.
    public var placeholderReason: String? { nil }
    public var placeholderFrames: Int { 0 }
}
