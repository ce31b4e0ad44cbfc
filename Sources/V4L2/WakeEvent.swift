#if canImport(Glibc)
import Glibc
#endif
import Media
internal import CV4L2

/// An eventfd a device thread polls next to the device, so `stop()` wakes it at once instead of
/// waiting out a poll timeout or a placeholder frame interval. Owns the fd; closes it in `deinit`.
///
/// Here because eventfd(2) comes through CV4L2's header (Glibc's module map lacks sys/eventfd.h)
/// and every loop that polls a V4L2 device needs one; Capture's Y4M pipe reader uses it too.
public final class WakeEvent: Sendable {
    public let fd: Int32

    public init() throws(SystemCallError) {
        fd = try SystemCall.run("eventfd") { eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) }
    }

    deinit {
        close(fd)
    }

    public func signal() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(fd, $0.baseAddress, 8) }
    }

    /// Blocks until `signal()` has been called (at any time before or during the wait).
    public func wait() {
        wait(milliseconds: -1)
    }

    /// Blocks until `signal()` has been called or `milliseconds` have passed (-1: without end),
    /// whichever comes first; returns whether it was signalled.
    @discardableResult
    public func wait(milliseconds: Int32) -> Bool {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        let ready = (try? SystemCall.run("poll") { poll(&fds, 1, milliseconds) }) ?? 0
        return ready > 0
    }
}
