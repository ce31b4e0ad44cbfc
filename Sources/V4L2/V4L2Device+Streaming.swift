internal import CV4L2
import Media

/// Starting and stopping a queue (`VIDIOC_STREAMON` / `VIDIOC_STREAMOFF`). Buffers are requested,
/// queued and dequeued through `V4L2BufferPool`.
extension V4L2Device {
    /// Starts the `type` queue: the driver fills queued buffers from now on.
    public func streamOn(_ type: V4L2BufferType) throws(SystemCallError) {
        var streamType = Int32(bitPattern: type.rawValue)
        try ioctl("VIDIOC_STREAMON", cv4l2_vidioc_streamon(), &streamType)
    }

    /// Stops the `type` queue; every buffer comes back dequeued.
    public func streamOff(_ type: V4L2BufferType) throws(SystemCallError) {
        var streamType = Int32(bitPattern: type.rawValue)
        try ioctl("VIDIOC_STREAMOFF", cv4l2_vidioc_streamoff(), &streamType)
    }
}
