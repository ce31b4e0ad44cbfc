import Media

#if canImport(Glibc)
import Glibc
#endif

/// The list of segments this recorder wrote, oldest first, kept in the recording directory
/// (`.camcast-recordings`), so retention after a restart still deletes only its own files.
///
/// One line per segment, tab-separated: relative path, bytes, wall-clock end (Unix seconds),
/// boot ID and boot-clock end (ms) of the boot that wrote it. Rewritten whole through a
/// temporary file and rename(2), so a power cut leaves the old list or the new one.
struct RecordingIndex {
    struct Entry: Equatable {
        var name: String
        var bytes: Int64
        var wallEnd: Int
        var bootID: String
        var bootEnd: Int64

        /// Seconds since the segment ended: by the boot clock within one boot, else by the wall
        /// clock (never negative: a wall clock set back does not make a file from the future).
        func age(clock: RecordingClock) -> Int64 {
            if !bootID.isEmpty, bootID == clock.bootID {
                return max(0, (clock.bootMilliseconds() - bootEnd) / 1000)
            }
            return Int64(max(0, clock.wallSeconds() - wallEnd))
        }
    }

    static let fileName = ".camcast-recordings"

    let directory: String
    private(set) var entries: [Entry] = []

    init(directory: String) {
        self.directory = directory
    }

    var path: String { "\(directory)/\(Self.fileName)" }
    var totalBytes: Int64 { entries.reduce(0) { $0 + $1.bytes } }

    /// Reads the list; a missing file is an empty list, a line that does not parse is left out.
    mutating func load() {
        guard let file = fopen(path, "r") else { return }
        defer { fclose(file) }
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            text += buffer[..<count]
        }
        entries = String(decoding: text, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, !fields[0].isEmpty, let bytes = Int64(fields[1]), let wallEnd = Int(fields[2]),
                let bootEnd = Int64(fields[4])
            else { return nil }
            return Entry(name: fields[0], bytes: bytes, wallEnd: wallEnd, bootID: fields[3], bootEnd: bootEnd)
        }
    }

    mutating func append(_ entry: Entry) {
        entries.removeAll { $0.name == entry.name }
        entries.append(entry)
    }

    mutating func remove(_ name: String) {
        entries.removeAll { $0.name == name }
    }

    /// Writes the list out; an error (a full disk) leaves the previous list in place.
    func save() throws(SystemCallError) {
        let temporary = path + ".new"
        let text = entries.map { "\($0.name)\t\($0.bytes)\t\($0.wallEnd)\t\($0.bootID)\t\($0.bootEnd)\n" }.joined()
        let descriptor = try SystemCall.run("open \(temporary)") { open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        do {
            try SystemCall.writeAll(descriptor, Array(text.utf8))
            try SystemCall.run("fdatasync") { fdatasync(descriptor) }
            close(descriptor)
            try SystemCall.run("rename \(temporary)") { rename(temporary, path) }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
    }
}
