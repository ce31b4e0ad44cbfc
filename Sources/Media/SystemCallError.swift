#if canImport(Glibc)
import Glibc
#endif

/// A system call (or ioctl) failed: which one, the errno it left, and the system's words for it.
public struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
    public var call: String
    public var errno: Int32

    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// The C library's text for `errno`, e.g. "Read-only file system".
    public var message: String { Self.message(errno) }

    /// `open failed: Read-only file system (errno 30)`: the words for people, the number for search.
    public var description: String { "\(call) failed: \(message) (errno \(errno))" }

    /// strerror's text for `code`; every error shown to a user says this, not only a number.
    public static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
