import FLV

/// Makes every new stream — a file, or an RTMP connection — begin the way players need it:
/// onMetaData, then the AVC sequence header, then a keyframe; nothing before that keyframe
/// (design invariant 1).
///
/// The metadata and sequence header are re-stamped with the keyframe's timestamp so that
/// timestamps on one connection never go backwards even when it starts mid-stream.
struct KeyframeGate {
    private let metadata: FLVTag
    private var sequenceHeader: FLVTag?
    private(set) var isStreaming = false

    init(metadata: FLVTag) {
        self.metadata = metadata
    }

    /// The tags to write for `packet`, in order; empty while waiting for the first keyframe.
    mutating func admit(_ packet: StreamPacket) -> [FLVTag] {
        switch packet.kind {
        case .sequenceHeader:
            sequenceHeader = packet.tag
            // A change mid-stream goes out at once; before the start it waits for the keyframe.
            return isStreaming ? [packet.tag] : []
        case .interFrame:
            return isStreaming ? [packet.tag] : []
        case .keyframe:
            guard !isStreaming else { return [packet.tag] }
            guard let header = sequenceHeader else { return [] }
            isStreaming = true
            let start = packet.tag.timestamp
            return [metadata.retimed(to: start), header.retimed(to: start), packet.tag]
        }
    }

    /// Forgets that the stream started (a new connection): the next keyframe starts it again.
    mutating func restart() {
        isStreaming = false
    }
}
