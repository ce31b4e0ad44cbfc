import Media

/// Gives each AAC packet the capture time of the PCM it decodes to, and its stream time.
///
/// The session feeds libavcodec blocks numbered by their first sample (pts in samples) and notes
/// each block's capture time here. libavcodec's AAC encoder stamps a packet with the pts of the
/// input its decoder output starts at, which for the first packet is 1024 samples before the
/// first block (the encoder's priming frame). So a packet's capture time is its block's, and the
/// priming packet's lies one frame before the first block.
///
/// Stream time mirrors the video packets' (the daemon's MediaPacketAssembler): capture
/// milliseconds minus the origin's, plus a start offset (0 except in tests). Packets before the
/// origin have no place on the stream's time line and are left out.
struct AACPacketClock {
    let sampleRate: Int
    private(set) var origin: MonotonicTime?
    let startMilliseconds: Int64
    private var blocks: [(pts: Int64, time: MonotonicTime)] = []
    private var lastDTS: Int64?

    init(sampleRate: Int, origin: MonotonicTime?, startMilliseconds: Int64) {
        self.sampleRate = sampleRate
        self.origin = origin
        self.startMilliseconds = startMilliseconds
    }

    mutating func record(blockPTS pts: Int64, time: MonotonicTime) {
        if origin == nil { origin = time }
        blocks.append((pts, time))
    }

    /// Capture time (ns) of the sample at encoder pts `pts`.
    mutating func captureNanoseconds(ofPTS pts: Int64) -> Int64 {
        // Blocks before the one this packet starts at will not be asked for again.
        while blocks.count > 1, blocks[1].pts <= pts { blocks.removeFirst() }
        guard let block = blocks.first else { return 0 }
        let samples = pts - block.pts
        return Int64(block.time.nanoseconds) + samples * 1_000_000_000 / Int64(sampleRate)
    }

    /// The stream time the packet at encoder pts `pts` will have (nil before the origin), asked
    /// before the encoder hands it out; changes nothing. Exact once its block is recorded (the
    /// encoder hands a packet out two blocks after its own), a lower bound before.
    func predictedStreamTime(ofPTS pts: Int64) -> Int64? {
        guard let block = blocks.last(where: { $0.pts <= pts }) ?? blocks.first else { return nil }
        let nanoseconds = Int64(block.time.nanoseconds) + (pts - block.pts) * 1_000_000_000 / Int64(sampleRate)
        let origin = Int64(self.origin?.nanoseconds ?? 0)
        guard nanoseconds >= origin else { return nil }
        let dts = startMilliseconds + nanoseconds / 1_000_000 - origin / 1_000_000
        return lastDTS.map { max(dts, $0 + 1) } ?? dts
    }

    /// The packet's stream time in ms, or nil if it falls before the origin. Never goes back:
    /// a capture clock that stepped back (a reopened device) moves the packet 1 ms past the last.
    mutating func streamTime(ofCaptureNanoseconds nanoseconds: Int64) -> Int64? {
        let origin = Int64(self.origin?.nanoseconds ?? 0)
        guard nanoseconds >= origin else { return nil }
        // Whole milliseconds of each, as the video packets are computed (MonotonicTime.milliseconds).
        var dts = startMilliseconds + nanoseconds / 1_000_000 - origin / 1_000_000
        if let last = lastDTS, dts <= last { dts = last + 1 }
        lastDTS = dts
        return dts
    }
}
