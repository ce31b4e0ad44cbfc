/// The bytes blending is about to change, kept so they can be put back after the encode: the
/// frame's memory may be the source's own (a buffer it reuses, a last good frame it repeats), and
/// only the rows and columns under the text are copied, never whole planes.
struct SavedBytes {
    private var ranges: [Range<Int>] = []
    private var bytes: [UInt8] = []

    mutating func save(_ ranges: [Range<Int>], from base: UnsafeMutablePointer<UInt8>) {
        self.ranges = ranges
        bytes.removeAll(keepingCapacity: true)
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
