#if canImport(Glibc)
import Glibc
#endif
import Media

/// Waiting for the driver: the device is non-blocking (a DQBUF never sleeps), so a device thread
/// sleeps in poll(2) on the device and its wake event together.
extension V4L2Device {
    /// Waits up to `timeoutMilliseconds` (-1: without end) for a filled buffer or `wake`.
    public func waitForBuffer(orWake wake: WakeEvent, timeoutMilliseconds: Int32) throws(SystemCallError) -> V4L2DeviceReadiness {
        var fds = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0),
        ]
        let ready = try SystemCall.run("poll") { poll(&fds, 2, timeoutMilliseconds) }
        if fds[1].revents != 0 { return .woken }
        if ready == 0 { return .timedOut }
        return .ready(reportsError: fds[0].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0)
    }
}
