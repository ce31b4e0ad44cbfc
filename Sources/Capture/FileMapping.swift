#if canImport(Glibc)
import Glibc
#endif

/// A span of a regular file mapped privately into memory: how a raw replay hands a frame to the
/// encoder without reading (copying) it first, as a camera hands over its mapped buffer. The
/// owner unmaps it with `unmap()` once the frame's delivery is over; one frame at a time is mapped,
/// so the file's pages never pile up in the process's memory. While mapped, a file cut shorter
/// under it reads as zeros instead of killing the process (`MappedFileFaultGuard`).
struct FileMapping {
    private let start: UnsafeMutableRawPointer
    private let mappedLength: Int
    /// The span asked for (it starts inside the first mapped page).
    let bytes: UnsafeRawBufferPointer
    /// Whether a filter may write into the bytes (the overlay): the mapping is private, so a write
    /// copies only the page it touches, and the file is never changed.
    let isWritable: Bool
    private let guardSlot: Int

    /// Maps `count` bytes at `offset` of `descriptor`; nil if mmap refuses (the caller reads instead).
    init?(descriptor: Int32, offset: Int, count: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let alignedOffset = offset - offset % page
        let lead = offset - alignedOffset
        // MAP_POPULATE: the pages are in the page cache already (or read ahead now); mapping them
        // all in one call costs less than a fault per 64 KiB as the encoder walks the frame.
        let address = mmap(nil, lead + count, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, off_t(alignedOffset))
        guard let address, address != MAP_FAILED else { return nil }
        guard let slot = MappedFileFaultGuard.register(start: address, length: lead + count) else {
            munmap(address, lead + count)
            return nil
        }
        guardSlot = slot
        // Writable only after MAP_POPULATE has mapped the pages for reading: populating a writable
        // private mapping would copy every page up front, the whole frame.
        isWritable = mprotect(address, lead + count, PROT_READ | PROT_WRITE) == 0
        start = address
        mappedLength = lead + count
        bytes = UnsafeRawBufferPointer(start: address + lead, count: count)
    }

    /// Unmaps; true if the file was cut shorter while mapped, so the bytes read were partly zeros.
    @discardableResult
    func unmap() -> Bool {
        let cut = MappedFileFaultGuard.unregister(guardSlot)
        munmap(start, mappedLength)
        return cut
    }
}
