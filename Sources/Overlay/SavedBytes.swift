/// The bytes blending is about to change, kept so they can be put back after the encode: the
/// frame's memory may be the source's own (a buffer it reuses, a last good frame it repeats), and
/// only the rows and columns under the text are copied, never whole planes.
///
/// One is kept by the stage and reused frame after frame, so a frame costs no allocation here.
struct SavedBytes: Sendable {
    /// Where the bytes go back; filled by the renderer before `save`.
    var ranges: [Range<Int>] = []
    private var bytes: [UInt8] = []

    /// Copies the bytes of every range in `ranges`.
    mutating func save(from base: UnsafeMutablePointer<UInt8>) {
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(ranges.reduce(0) { $0 + $1.count })
        for range in ranges {
            bytes.append(contentsOf: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
        }
    }

    /// Puts the saved bytes back, in reverse order, so overlapping ranges end as they began.
    func restore(into base: UnsafeMutablePointer<UInt8>) {
        var end = bytes.count
        bytes.withUnsafeBufferPointer { saved in
            for range in ranges.reversed() {
                end -= range.count
                (base + range.lowerBound).update(from: saved.baseAddress! + end, count: range.count)
            }
        }
    }

    var byteCount: Int { bytes.count }
}
