#if canImport(Glibc)
import Glibc
#endif

/// A system call (or V4L2 ioctl) failed: which one, and the errno it left.
struct SystemCallError: Error, Equatable, CustomStringConvertible {
    var call: String
    var errno: Int32

    /// The C library's text for `errno`, e.g. "No such device".
    var message: String { String(cString: strerror(errno)) }

    var description: String { "\(call) failed: \(message) (errno \(errno))" }

    /// The device node is no longer there: unplugged, or the driver unregistered it.
    var meansDeviceGone: Bool { errno == ENODEV || errno == ENOENT || errno == ENXIO }
}
