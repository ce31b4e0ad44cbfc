import Media

/// The packets from the newest video keyframe on (its GOP so far, with the audio beside it): what a
/// leg that takes over is given first, so its viewers get the picture that was still on its way
/// rather than waiting for the next keyframe (issue 43: "starting from the newest keyframe").
///
/// Bounded: a run longer than `maxSpanMilliseconds` (a keyframe interval far longer than usual)
/// is dropped whole until the next keyframe, and a new leg then starts at the keyframe it asks for.
struct NewestKeyframeRun {
    let maxSpanMilliseconds: Int64
    private(set) var packets: [MediaPacket] = []

    init(maxSpanMilliseconds: Int64) {
        self.maxSpanMilliseconds = maxSpanMilliseconds
    }

    mutating func add(_ packet: MediaPacket) {
        if packet.mediaKind == .video && packet.isKeyframe {
            packets.removeAll(keepingCapacity: true)
            packets.append(packet)
            return
        }
        // Nothing decodable before the first keyframe.
        guard let first = packets.first else { return }
        guard packet.dts - first.dts <= maxSpanMilliseconds else {
            packets.removeAll()
            return
        }
        packets.append(packet)
    }
}
