/// What `VIDIOC_DQBUF` said about one buffer the driver is done with (`struct v4l2_buffer`):
/// a filled capture buffer, whose bytes stay in the pool's mapping until it is queued again, or
/// an output buffer the driver has read (then `bytesUsed` is what was queued, `sequence` the
/// driver's count of frames it took).
public struct V4L2DequeuedBuffer: Sendable, Hashable {
    public var index: Int
    /// Bytes of picture data, starting at `dataOffset` in the mapping.
    public var bytesUsed: Int
    public var dataOffset: Int
    public var flags: UInt32
    public var sequence: UInt32
    /// `v4l2_buffer.timestamp` in nanoseconds, on the clock `flags` name.
    public var timestampNanoseconds: UInt64

    /// `V4L2_BUF_FLAG_ERROR`: the driver says the data may be corrupt (Linux media API, "Buffer Flags").
    public var isError: Bool { flags & 0x0000_0040 != 0 }

    /// `V4L2_BUF_FLAG_TIMESTAMP_MASK` is `V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC`: stamped on CLOCK_MONOTONIC.
    /// Otherwise (`UNKNOWN`, or `COPY` from an output queue) the stamp is not ours to use.
    public var hasMonotonicTimestamp: Bool { flags & 0x0000_E000 == 0x0000_2000 }
}
