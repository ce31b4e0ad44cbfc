/// Why a segment could not be created, written or closed. `errno` is set when the system said
/// why (ENOSPC: the disk is full), so the recorder can pause instead of giving up.
struct SegmentError: Error, CustomStringConvertible {
    var path: String
    var action: String
    var reason: String
    var errno: Int32?

    var description: String { "\(action) \(path): \(reason)" }
}
