#if canImport(Glibc)
import Glibc
#endif

/// What a source path names, for the checks that only a regular file allows (reading ahead,
/// knowing its length): a pipe or standard input can be read once only.
enum FileKind {
    /// The size of `path` if it is a regular file; nil for standard input (`-`), a pipe, a device,
    /// or a path that cannot be examined (opening it will say why).
    static func regularFileSize(_ path: String) -> Int? {
        guard path != "-" else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }
}
