import Synchronization

/// Pixel memory a source lends to one `deliver` call instead of copying it: a V4L2 driver's
/// mapped capture buffer, which the driver leaves alone until the source queues it again.
///
/// The source ends the loan when `deliver` returns, before it gives the buffer back; from then on
/// any read traps, so a consumer that kept the frame fails at once instead of encoding a picture
/// the driver is overwriting, or reading memory that has been unmapped.
///
/// `@unchecked Sendable` covers the pointer alone (an immutable value; the one mutable state,
/// `lent`, is an atomic), and is sound because of how it is used:
/// - the one writer in Camcast is the overlay filter, on the delivering thread before the encoder
///   reads (`VideoFrame.withBytesInPlace`), and only into memory lent `writable`; readers on any
///   number of threads after it cannot race one another;
/// - the only writer is the device, which fills a buffer only while it is queued (V4L2 streaming
///   I/O: a dequeued buffer belongs to the application), and the source queues it only after
///   `deliver` returned and the loan ended; unmapping comes later still;
/// - so a reader that keeps to the contract (done before `deliver` returns, on whatever thread
///   `deliver` waits for) never overlaps a write. What Sendable cannot say is the lifetime: the
///   loan check catches a reader that outlives it, as long as it reads after the loan ended; it is
///   a guard, not a lock.
package final class BorrowedPixels: @unchecked Sendable {
    private let bytes: UnsafeRawBufferPointer
    private let lent = Atomic<Bool>(true)
    /// Whether the memory may be written during the loan: a camera buffer mapped read-write (the
    /// driver refills it anyway).
    package let isWritable: Bool

    /// Lends `bytes` until `endLoan()`; the caller keeps them mapped until then, and unchanged
    /// except by the delivery's own filters when `writable`.
    package init(_ bytes: UnsafeRawBufferPointer, writable: Bool = false) {
        self.bytes = bytes
        isWritable = writable
    }

    package var count: Int { bytes.count }

    /// Says the memory is about to go back to its owner; every later read traps.
    package func endLoan() {
        lent.store(false, ordering: .releasing)
    }

    func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        precondition(
            lent.load(ordering: .acquiring),
            "a borrowed VideoFrame was read after its delivery ended; keep frame.owned() to use it later")
        return try body(bytes)
    }
}
