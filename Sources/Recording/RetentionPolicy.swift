#if canImport(Glibc)
import Glibc
#endif

/// Which of its own segments a recorder deletes, oldest first: those older than
/// `maxAgeSeconds`, then as many as it takes to bring all segments (the one being written
/// included) under `maxBytes`, and the file system's free space over `minFreeBytes`.
///
/// Only a file in the recorder's index whose name its pattern makes is deleted; a user's file
/// in the same folder, or a segment named by an earlier pattern, is left where it is.
struct RetentionPolicy {
    var maxAgeSeconds: Int64?
    var maxBytes: Int64?
    var minFreeBytes: Int64?
    var naming: SegmentNaming

    var isEmpty: Bool { maxAgeSeconds == nil && maxBytes == nil && minFreeBytes == nil }

    /// Deletes what the limits ask for from `index`; returns the names deleted.
    func sweep(
        _ index: inout RecordingIndex, inProgressBytes: Int64, clock: RecordingClock, freeBytes: () -> Int64?,
        delete: (String) -> Bool
    ) -> [String] {
        var deleted: [String] = []
        while let oldest = index.entries.first {
            let tooOld = maxAgeSeconds.map { oldest.age(clock: clock) > $0 } ?? false
            let tooBig = maxBytes.map { index.totalBytes + inProgressBytes > $0 } ?? false
            let tooFull = minFreeBytes.map { floor in freeBytes().map { $0 < floor } ?? false } ?? false
            guard tooOld || tooBig || tooFull else { break }
            index.remove(oldest.name)
            // Not a name of ours (the pattern changed): forget it, keep the file.
            guard naming.matches(oldest.name) else { continue }
            if delete(oldest.name) { deleted.append(oldest.name) }
        }
        return deleted
    }

    /// Free bytes for an unprivileged writer on the file system holding `directory`.
    static func freeBytes(in directory: String) -> Int64? {
        var info = statvfs()
        guard statvfs(directory, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// Deletes `name` under `directory` if it is a regular file, then the folders the pattern
    /// made that are empty now. True if it is gone (deleted now or already missing).
    static func deleteSegment(_ name: String, in directory: String) -> Bool {
        guard !name.split(separator: "/").contains("..") else { return false }
        let path = "\(directory)/\(name)"
        var info = stat()
        if lstat(path, &info) != 0 { return errno == ENOENT }
        guard info.st_mode & S_IFMT == S_IFREG, unlink(path) == 0 else { return false }
        var parts = name.split(separator: "/").dropLast()
        while !parts.isEmpty, rmdir("\(directory)/\(parts.joined(separator: "/"))") == 0 {
            parts = parts.dropLast()
        }
        return true
    }
}
