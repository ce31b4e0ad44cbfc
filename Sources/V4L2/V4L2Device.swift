#if canImport(Glibc)
import Glibc
#endif
import Media
internal import CV4L2

/// An open V4L2 device node: the single owner of its file descriptor, closed in `deinit`.
///
/// Talks to the kernel directly (see shim.h for why not through libv4l2). Every request is a typed
/// method (its extensions: enumeration, format, streaming, input); no C struct leaves this module.
/// Not Sendable: a device is opened, used and closed by one thread (the capture thread, or the lister).
public final class V4L2Device {
    public let path: String
    /// The open node, for `poll(2)` beside other fds; requests go through the methods.
    public let fd: Int32
    public let capabilities: V4L2Capabilities

    /// Opens `path` non-blocking (the capture loop waits in poll, never in DQBUF) and queries it.
    public init(path: String) throws(SystemCallError) {
        self.path = path
        let opened = try SystemCall.run("open") { cv4l2_sys_open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
        fd = opened
        var raw = v4l2_capability()
        do {
            try Self.ioctl(opened, "VIDIOC_QUERYCAP", cv4l2_vidioc_querycap(), &raw)
        } catch {
            close(opened)
            throw error
        }
        capabilities = V4L2Capabilities(raw)
    }

    deinit {
        close(fd)
    }

    /// Runs one ioctl on this device, EINTR retried, failures named after the request. Internal:
    /// callers outside the module use the typed methods.
    func ioctl<Argument>(_ name: String, _ request: UInt, _ argument: inout Argument) throws(SystemCallError) {
        try Self.ioctl(fd, name, request, &argument)
    }

    private static func ioctl<Argument>(
        _ fd: Int32, _ name: String, _ request: UInt, _ argument: inout Argument
    ) throws(SystemCallError) {
        _ = try withUnsafeMutablePointer(to: &argument) { (pointer) throws(SystemCallError) in
            try SystemCall.run(name) { cv4l2_sys_ioctl(fd, request, pointer) }
        }
    }
}
