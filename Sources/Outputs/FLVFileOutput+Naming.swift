#if canImport(Glibc)
import Glibc
#endif

extension FLVFileOutput {
    /// `path` if nothing is there; otherwise the same name with the local time (and a counter if
    /// need be) before the extension, e.g. `cam.flv` → `cam-20261124-073012.flv`. A restart must
    /// never destroy the previous recording (issue 14 #9); the writer still creates with O_TRUNC,
    /// but only ever on a name that did not exist a moment before.
    ///
    /// A FIFO or a character device (`/dev/stdout`, a pipe to another program) holds no
    /// recording, so it is written as named.
    ///
    /// - Parameter now: seconds since the epoch, named in local time (the name a person reads).
    static func freshPath(for path: String, now: time_t = time(nil), exists: (String) -> Bool = holdsRecording) -> String {
        guard exists(path) else { return path }
        let ext = pathExtension(path)
        let stem = String(path.dropLast(ext.isEmpty ? 0 : ext.count + 1))
        let stamp = localStamp(now)
        let dot = ext.isEmpty ? "" : ".\(ext)"
        var candidate = "\(stem)-\(stamp)\(dot)"
        var counter = 2
        while exists(candidate) {
            candidate = "\(stem)-\(stamp)-\(counter)\(dot)"
            counter += 1
        }
        return candidate
    }

    /// Whether something is at `path` that a new file must not replace: anything but a FIFO or
    /// a character device.
    static func holdsRecording(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        return type != S_IFIFO && type != S_IFCHR
    }

    /// The last name's extension without its dot (`cam.flv` → `flv`); none for `cam`, `.flv`
    /// (a hidden file's name) or a name ending in a dot.
    static func pathExtension(_ path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// `yyyyMMdd-HHmmss` in local time.
    private static func localStamp(_ seconds: time_t) -> String {
        var time = seconds
        var parts = tm()
        localtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y%m%d-%H%M%S", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
