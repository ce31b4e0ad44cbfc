#if canImport(Glibc)
import Glibc
#endif

/// Writes whole lines to file descriptor 2 with one write(2) each, so lines from several threads
/// never interleave (stdio's `stderr` is shared mutable state to Swift 6, and buffered).
enum StandardError {
    static func write(_ line: String) {
        var bytes = Array(line.utf8)
        if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
