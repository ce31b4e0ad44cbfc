/// Where a `Y4MReader` gets its bytes: a file, a pipe, or in tests a buffer handed out in pieces.
///
/// A read may return fewer bytes than asked for (pipes do); the reader loops until it has what it
/// needs, so it is correct for any chunking down to one byte per read.
public protocol Y4MByteInput {
    /// Reads up to `buffer.count` bytes into `buffer`; returns how many, 0 at the end of the stream.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(Y4MError) -> Int
    /// Moves back to byte `offset` from the start, if the input can (a file can, a pipe cannot).
    mutating func seek(to offset: Int) throws(Y4MError) -> Bool
}
