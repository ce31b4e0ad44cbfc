#if canImport(Glibc)
import Glibc
#endif

/// A span of a regular file mapped read-only into memory: how a raw replay hands a frame to the
/// encoder without reading (copying) it first, as a camera hands over its mapped buffer. The
/// owner unmaps it with `unmap()` once the frame's delivery is over; one frame at a time is mapped,
/// so the file's pages never pile up in the process's memory.
struct FileMapping {
    private let start: UnsafeMutableRawPointer
    private let mappedLength: Int
    /// The span asked for (it starts inside the first mapped page).
    let bytes: UnsafeRawBufferPointer

    /// Maps `count` bytes at `offset` of `descriptor`; nil if mmap refuses (the caller reads instead).
    init?(descriptor: Int32, offset: Int, count: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let alignedOffset = offset - offset % page
        let lead = offset - alignedOffset
        // MAP_POPULATE: the pages are in the page cache already (or read ahead now); mapping them
        // all in one call costs less than a fault per 64 KiB as the encoder walks the frame.
        let address = mmap(nil, lead + count, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, off_t(alignedOffset))
        guard let address, address != MAP_FAILED else { return nil }
        start = address
        mappedLength = lead + count
        bytes = UnsafeRawBufferPointer(start: address + lead, count: count)
    }

    func unmap() {
        munmap(start, mappedLength)
    }
}
