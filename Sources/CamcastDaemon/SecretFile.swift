#if canImport(Glibc)
import Glibc
#endif

/// A file holding a secret (`http.credentials_file`, an SRT output's `passphrase_file`): read
/// only when no other user can read it (mode 0600, or 0640/0400 without the group or others' bits
/// for read), so a secret left world-readable is a config problem, not a warning.
enum SecretFile {
    /// The file's text (its first 64 KiB), or the problem in words: "PATH: No such file or
    /// directory", "PATH is readable by others (mode 644); chmod 600 it".
    static func contents(of path: String) throws(Problem) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Problem(message: "\(path): \(String(cString: strerror(errno)))") }
        guard info.st_mode & 0o077 == 0 else {
            throw Problem(message: "\(path) is readable by others (mode \(String(info.st_mode & 0o777, radix: 8))); chmod 600 it")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Problem(message: "\(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 65536)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw Problem(message: "\(path): \(String(cString: strerror(errno)))") }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }

    struct Problem: Error {
        var message: String
    }
}
