/// The bytes blending is about to change, kept so they can be put back after the encode: the
/// frame's memory may be the source's own (a buffer it reuses, a last good frame it repeats), and
/// only the rows and columns under the text are copied, never whole planes.
///
/// One is kept by the stage and reused frame after frame, so a frame costs no allocation here.
struct SavedBytes: Sendable {
    /// Where the bytes go back.
    private(set) var ranges: [Range<Int>] = []
    /// The saved bytes are the first `byteCount` of `bytes`.
    private var bytes: [UInt8] = []
    private(set) var byteCount = 0

    /// Keeps `ranges` and copies their bytes (the buffer grows only when they need more).
    mutating func save(from base: UnsafeMutablePointer<UInt8>, ranges: [Range<Int>]) {
        self.ranges = ranges
        let total = ranges.reduce(0) { $0 + $1.count }
        if bytes.count < total { bytes = [UInt8](repeating: 0, count: total) }
        byteCount = total
        bytes.withUnsafeMutableBufferPointer { saved in
            guard var out = saved.baseAddress else { return }
            for range in ranges {
                out.update(from: base + range.lowerBound, count: range.count)
                out += range.count
            }
        }
    }

    /// Puts the saved bytes back, in reverse order, so overlapping ranges end as they began.
    func restore(into base: UnsafeMutablePointer<UInt8>) {
        var end = byteCount
        bytes.withUnsafeBufferPointer { saved in
            for range in ranges.reversed() {
                end -= range.count
                (base + range.lowerBound).update(from: saved.baseAddress! + end, count: range.count)
            }
        }
    }
}
