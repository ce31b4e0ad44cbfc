#if canImport(Glibc)
import Glibc
#endif

/// A file output whose file a failed start takes away again: a run that never streamed leaves
/// no header-only file behind (issue 25), nor a recording's folder it made (issue 41).
package protocol DiscardableOutput: StreamOutput {
    /// Stops the output and removes its file if no media reached it; a file with media is finished
    /// as `finish` would.
    func discardIfUnused()
}

extension DiscardableOutput {
    package func abandon(endTime: Int64, drainSeconds: Double) {
        discardIfUnused()
    }
}

extension FLVFileOutput: DiscardableOutput {}
extension AnnexBFileOutput: DiscardableOutput {}

enum UnusedFile {
    /// Removes `path`; a file already gone is fine.
    static func remove(_ path: String) {
        _ = unlink(path)
    }
}
