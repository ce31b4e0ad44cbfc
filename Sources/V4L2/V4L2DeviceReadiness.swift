/// How a wait on a device (`V4L2Device.waitForBuffer`) ended.
public enum V4L2DeviceReadiness: Sendable, Hashable {
    /// The wake event was signalled (a stop): the caller looks at why before touching the device.
    case woken
    /// Neither the device nor the wake event became ready within the timeout.
    case timedOut
    /// A buffer may be dequeued (the device polled readable, or writable for an output queue), or
    /// the device is in error: `reportsError` is set when poll said POLLERR, POLLHUP or POLLNVAL,
    /// which with nothing to dequeue means vb2's queue is broken or not streaming (Linux media
    /// API, "Streaming I/O": poll).
    case ready(reportsError: Bool)
}
