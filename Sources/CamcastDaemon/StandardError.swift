import Media

/// Writes whole lines to file descriptor 2 with one write(2) each, so lines from several threads
/// never interleave (stdio's `stderr` is shared mutable state to Swift 6, and buffered).
enum StandardError {
    static func write(_ line: String) {
        var bytes = Array(line.utf8)
        if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        // Nowhere to report a failure to write to stderr: the line is lost.
        try? SystemCall.writeAll(2, bytes)
    }
}
