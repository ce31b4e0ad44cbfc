import Media

/// The open file of a file output (FLV, Annex-B, MP4 segments) together with its muxer. It
/// belongs to its `ContainerWriter`'s thread: every call comes from that thread alone, so the
/// file needs no lock and nothing else ever waits behind one of its `write(2)` calls.
///
/// Implementations are `@unchecked Sendable` only so the thread can take them over; no other
/// thread touches them after `ContainerWriter.start`. Debug builds check it: the writer binds
/// `confinement` on its thread as the open returns, and each implementation asserts it on every
/// call.
package protocol ContainerFile: AnyObject, Sendable {
    /// The writer thread's, from the open on (`ContainerWriter` binds it).
    var confinement: ThreadConfinement { get }
    /// Muxes and writes one packet. True if it wrote a picture (the output's sent frames).
    /// A thrown failure ends this output alone; `end` is still called once the queue is closed.
    func write(_ packet: MediaPacket) throws(OutputFailure) -> Bool
    /// Ends the file as asked, then closes its descriptor. Called exactly once, last.
    func end(_ ending: ContainerEnding)
}

/// How a file output's file ends.
package enum ContainerEnding: Sendable, Equatable {
    /// The stream stopped at stream time `endTime` (ms): end-of-sequence tag, patched header.
    case finish(endTime: Int64)
    /// A run that did not start: a file no media reached is removed, one with media finished.
    case discardIfUnused
    /// The writer gave up waiting for a hung write: close the descriptor, write nothing more.
    case abandon
}
