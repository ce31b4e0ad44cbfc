import Media

/// The last stretch of the stream, kept in memory for an outage recording: whole keyframe
/// intervals, starting at a keyframe, spanning at least `seconds` when the memory allows, never
/// more than `maxBytes` (the older intervals go first).
struct PreRoll {
    let milliseconds: Int64
    let maxBytes: Int64
    private(set) var packets: [MediaPacket] = []
    private(set) var bytes: Int64 = 0

    init(seconds: Double, maxBytes: Int64) {
        milliseconds = Int64((seconds * 1000).rounded())
        self.maxBytes = maxBytes
    }

    mutating func append(_ packet: MediaPacket) {
        // Nothing before the first keyframe: a segment could not start there.
        if packets.isEmpty, !(packet.mediaKind == .video && packet.isKeyframe) { return }
        packets.append(packet)
        bytes += Self.size(of: packet)
        trim(newest: packet.dts)
    }

    /// Hands out what is kept, oldest first, and starts empty.
    mutating func take() -> [MediaPacket] {
        defer {
            packets = []
            bytes = 0
        }
        return packets
    }

    /// Drops the oldest keyframe interval while the next one still reaches back `milliseconds`,
    /// or while the bytes are over the limit.
    private mutating func trim(newest: Int64) {
        while let next = packets.dropFirst().firstIndex(where: { $0.mediaKind == .video && $0.isKeyframe }) {
            let longEnough = newest - packets[next].dts >= milliseconds
            guard longEnough || bytes > maxBytes else { return }
            bytes -= packets[..<next].reduce(0) { $0 + Self.size(of: $1) }
            packets.removeFirst(next)
        }
    }

    static func size(of packet: MediaPacket) -> Int64 {
        Int64(packet.units.reduce(0) { $0 + $1.count + 4 })
    }
}
