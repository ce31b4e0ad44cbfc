import Media
import Synchronization

/// The conversion stage's spare picture buffers, reused frame after frame: a few slots, each an
/// atomic reference, so taking a buffer and giving it back on every frame are two exchanges, not
/// two lock takes (issue 26). Two deliveries at once (a source swap) each get buffers of their own;
/// a buffer given back to a full pool (a size change left buffers of the old size) takes the first
/// slot, and the buffer there goes.
final class PictureBufferPool: @unchecked Sendable {
    // @unchecked: `slots` is allocated once and only read through (its atomics are the state): the
    // pointer stands in for a fixed-size array of atomics, which Swift cannot hold otherwise
    // (`Atomic` is not copyable; an `InlineArray` would fix the capacity in the type).
    private typealias Slot = Atomic<Unmanaged<PictureBuffer>?>
    private let slots: UnsafeMutablePointer<Slot>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        for index in 0..<capacity { (slots + index).initialize(to: Slot(nil)) }
    }

    deinit {
        for index in 0..<capacity { slots[index].load(ordering: .acquiring)?.release() }
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// A spare buffer for `pixelFormat` at `width`×`height`, owned by the calling thread from now
    /// on (its `confinement`); nil when none fits.
    func take(_ pixelFormat: PixelFormat, width: Int, height: Int) -> PictureBuffer? {
        for index in 0..<capacity where slots[index].load(ordering: .relaxed) != nil {
            guard let taken = slots[index].exchange(nil, ordering: .acquiringAndReleasing) else { continue }
            let buffer = taken.takeRetainedValue()
            if buffer.fits(pixelFormat, width: width, height: height) {
                buffer.confinement.bindToCurrentThread()
                return buffer
            }
            giveBack(buffer)
        }
        return nil
    }

    /// Keeps `buffer` for a later `take`.
    func giveBack(_ buffer: PictureBuffer) {
        let reference = Unmanaged.passRetained(buffer)
        for index in 0..<capacity {
            if slots[index].compareExchange(expected: nil, desired: reference, ordering: .acquiringAndReleasing).exchanged { return }
        }
        slots[0].exchange(reference, ordering: .acquiringAndReleasing)?.release()
    }

}
