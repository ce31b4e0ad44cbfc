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

    /// What is wrong with a camera path before anything is opened, if anything.
    enum DevicePathProblem: Equatable {
        /// A regular file or a directory: no retry makes it a camera (a configuration error).
        case neverADevice(String)
        /// Nothing there now: the daemon sends the slate and waits for it (a warning).
        case notThereYet(String)
    }

    /// A camera path is refused only when it can never be a capture device; one that does not
    /// exist yet (a USB camera enumerating after the unit started, a by-id link udev has not
    /// made) is waited for. Character devices that turn out not to be V4L2 are refused at start.
    static func devicePathProblem(_ path: String) -> DevicePathProblem? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return .notThereYet("source.device: \(path) does not exist now; camcast will send the slate and wait for it")
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            return .neverADevice("\(path) is a directory, not a video device")
        case S_IFREG:
            return .neverADevice(
                "\(path) is a regular file, not a video device; to play a clip give it as source.file "
                    + "(a .y4m, .mjpeg or raw frames)")
        default:
            return nil
        }
    }
}
