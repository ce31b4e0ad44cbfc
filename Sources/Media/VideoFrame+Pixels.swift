/// Reading a frame's pixels, owned or borrowed alike, and keeping them beyond a delivery.
extension VideoFrame {
    /// How many bytes the frame's buffer holds (its planes lie inside them).
    public var byteCount: Int {
        switch pixels {
        case .owned(let bytes): bytes.count
        case .borrowed(let lent): lent.count
        }
    }

    /// Whether the bytes are lent by the source for the current delivery only (a camera's buffer,
    /// delivered without a copy) rather than owned by the frame.
    public var isBorrowed: Bool {
        if case .borrowed = pixels { return true }
        return false
    }

    /// Calls `body` with the frame's bytes. The pointer is valid only inside `body`; for a borrowed
    /// frame, only while its delivery lasts.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        switch pixels {
        case .owned(let bytes):
            // Array.withUnsafeBytes rethrows untyped; carry the typed error through a Result.
            let result: Result<R, E> = bytes.withUnsafeBytes { raw in
                do throws(E) { return .success(try body(raw)) } catch { return .failure(error) }
            }
            return try result.get()
        case .borrowed(let lent):
            return try lent.withBytes(body)
        }
    }

    /// This frame with bytes of its own, safe to keep after the delivery that brought it: a copy of
    /// a borrowed frame, the frame itself (no copy) if it already owns its bytes.
    public func owned() -> VideoFrame {
        guard isBorrowed else { return self }
        var copy = self
        copy.pixels = .owned(copiedBytes())
        return copy
    }

    /// This frame with a copy of its bytes, always, for a picture handed to another thread: unlike
    /// `owned()`, not even an owned frame's array is shared, since a filter may draw into that
    /// array in place and its source refill it once the delivery returns (the overlay, the test
    /// pattern). Uninitialised storage, filled by one copy.
    public func copied() -> VideoFrame {
        var copy = self
        copy.pixels = .owned(withUnsafeBytes { source in
            [UInt8](unsafeUninitializedCapacity: source.count) { buffer, count in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: source)
                count = source.count
            }
        })
        return copy
    }

    /// The bytes as an array: a copy of a borrowed frame's, the frame's own array (shared, no copy)
    /// for an owned one. Per-frame code reads through `withUnsafeBytes` instead.
    public func copiedBytes() -> [UInt8] {
        switch pixels {
        case .owned(let bytes): bytes
        case .borrowed(let lent): lent.withBytes { Array($0) }
        }
    }
}
