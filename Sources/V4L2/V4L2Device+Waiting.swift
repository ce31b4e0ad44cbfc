#if canImport(Glibc)
import Glibc
#endif
import Media

/// Waiting for the driver: the device is non-blocking (a DQBUF never sleeps), so a device thread
/// sleeps in poll(2) on the device and its wake event together. A capture queue polls readable
/// (POLLIN) when a filled buffer is done; an output queue polls writable (POLLOUT) when a buffer it
/// has read comes back (vb2's poll; a mem2mem node reports both queues on its one fd).
extension V4L2Device {
    /// Waits up to `timeoutMilliseconds` (-1: without end) for a filled capture buffer or `wake`.
    public func waitForBuffer(orWake wake: WakeEvent, timeoutMilliseconds: Int32) throws(SystemCallError) -> V4L2DeviceReadiness {
        try waitForBuffer(on: [.videoCapture], orWake: wake, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Waits for a buffer done on any of `types`' queues, or `wake`. A mem2mem user passes both of
    /// its queues and then dequeues from each (a dequeue with nothing done returns nil).
    public func waitForBuffer(
        on types: [V4L2BufferType], orWake wake: WakeEvent, timeoutMilliseconds: Int32
    ) throws(SystemCallError) -> V4L2DeviceReadiness {
        let events = types.reduce(Int16(0)) { $0 | Int16($1.isOutput ? POLLOUT : POLLIN) }
        var fds = [
            pollfd(fd: fd, events: events, revents: 0),
            pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0),
        ]
        let ready = try SystemCall.run("poll") { poll(&fds, 2, timeoutMilliseconds) }
        if fds[1].revents != 0 { return .woken }
        if ready == 0 { return .timedOut }
        return .ready(reportsError: fds[0].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0)
    }
}
