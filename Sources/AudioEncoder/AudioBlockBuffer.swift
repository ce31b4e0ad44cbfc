import Media

/// Cuts a stream of `AudioFrame`s of any length into the fixed blocks an AAC frame encodes
/// (1024 sample frames), each stamped with the capture time of its first sample.
///
/// The time of a block that starts inside a frame is that frame's timestamp plus the samples
/// before it, so every block keeps the source's own clock (an ALSA device's drift, a gap after a
/// reopen) rather than a count from the first frame.
struct AudioBlockBuffer {
    struct Block {
        /// Interleaved S16, `frameCount × channels` samples.
        var samples: [Int16]
        var frameCount: Int
        var timestamp: MonotonicTime
    }

    let format: AudioFormat
    let blockFrames: Int
    private var pending: [Int16] = []
    /// Where each buffered frame began, in sample frames from `pending[0]` (≤ 0 for the frame
    /// the first pending sample belongs to), with its timestamp. Sorted by offset.
    private var anchors: [(offset: Int, timestamp: MonotonicTime)] = []

    init(format: AudioFormat, blockFrames: Int = 1024) {
        self.format = format
        self.blockFrames = blockFrames
        pending.reserveCapacity(blockFrames * format.channels * 2)
    }

    var bufferedFrames: Int { pending.count / format.channels }

    mutating func append(_ frame: AudioFrame) {
        guard frame.frameCount > 0 else { return }
        anchors.append((offset: bufferedFrames, timestamp: frame.timestamp))
        pending.append(contentsOf: frame.samples)
    }

    /// The next whole block, if enough samples are buffered.
    mutating func nextBlock() -> Block? {
        guard bufferedFrames >= blockFrames else { return nil }
        return take(blockFrames)
    }

    /// What is left (fewer than a block), for the last AAC frame of a flush.
    mutating func remainder() -> Block? {
        guard bufferedFrames > 0 else { return nil }
        return take(bufferedFrames)
    }

    private mutating func take(_ frames: Int) -> Block {
        let timestamp = time(atFrame: 0)
        let count = frames * format.channels
        let samples = Array(pending[..<count])
        pending.removeFirst(count)
        for index in anchors.indices { anchors[index].offset -= frames }
        // Keep only the anchor the new first sample belongs to and those after it.
        if let keep = anchors.lastIndex(where: { $0.offset <= 0 }), keep > 0 { anchors.removeFirst(keep) }
        if pending.isEmpty { anchors.removeAll() }
        return Block(samples: samples, frameCount: frames, timestamp: timestamp)
    }

    private func time(atFrame frame: Int) -> MonotonicTime {
        guard let anchor = anchors.last(where: { $0.offset <= frame }) else { return MonotonicTime(nanoseconds: 0) }
        let frames = UInt64(frame - anchor.offset)
        return anchor.timestamp.adding(nanoseconds: frames * 1_000_000_000 / UInt64(format.sampleRate))
    }
}
