/// Writing into a frame's pixels where they lie, for a filter between the source and the encoder
/// (the overlay) that must not copy whole planes.
extension VideoFrame {
    /// Calls `body` with the frame's bytes, writable, if they may be written in place: an owned
    /// frame's array, or memory its source lent writable. Nil (body not called) for memory lent
    /// read-only.
    ///
    /// An owned frame's array may be shared with its source (the test pattern keeps its buffer,
    /// a camera keeps its last good frame to repeat): a write here is seen there too, without the
    /// whole-buffer copy a copy-on-write mutation would make. So the caller puts back every byte it
    /// changed before the delivery that brought the frame returns; the source is waiting in that
    /// delivery, so nothing else reads the bytes meanwhile.
    package func withBytesInPlace<R, E: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(E) -> R) throws(E) -> R? {
        switch pixels {
        case .owned(let bytes):
            let result: Result<R, E> = bytes.withUnsafeBytes { raw in
                do throws(E) { return .success(try body(UnsafeMutableRawBufferPointer(mutating: raw))) } catch {
                    return .failure(error)
                }
            }
            return try result.get()
        case .borrowed(let lent):
            guard lent.isWritable else { return nil }
            return try lent.withBytes { (raw) throws(E) in try body(UnsafeMutableRawBufferPointer(mutating: raw)) }
        }
    }
}
