/// Counts frames a driver dropped from the gaps in `v4l2_buffer.sequence`, a 32-bit counter that
/// the driver advances for every frame it captured or dropped (Linux media API, "struct
/// v4l2_buffer": "the sequence count … also counts dropped frames"), and which may wrap.
struct V4L2SequenceTracker: Sendable {
    private var last: UInt32?

    /// Records `sequence` and returns how many frames were missed since the previous one. A
    /// sequence that repeats or goes back (a driver restart) is not a drop: counting restarts.
    mutating func observe(_ sequence: UInt32) -> Int {
        defer { last = sequence }
        guard let last else { return 0 }
        let step = sequence &- last
        // Half the 32-bit range as the limit tells a wrap (small step) from a step back (huge step).
        guard step != 0, step < 1 << 31 else { return 0 }
        return Int(step - 1)
    }

    /// Forgets the last sequence (a new stream starts at 0).
    mutating func reset() { last = nil }
}
