import FLV
import Media

/// Muxes codec-neutral packets into FLV tags for one output (a file, an RTMP connection), with a
/// `KeyframeGate` deciding where its stream starts: onMetaData, the sequence header, then the
/// keyframe, all at the keyframe's time, so timestamps never go backwards on a connection that
/// starts mid-stream.
///
/// H.264 goes as legacy AVC tags (CodecID 7); H.265 as Enhanced RTMP v1 'hvc1' tags: a
/// SequenceStart with the HEVCDecoderConfigurationRecord, CodedFramesX (pts = dts) or CodedFrames,
/// and SequenceEnd to close (FLVPacketMuxer+Codec.swift). The metadata tag it is given must name
/// the same codec (`FLVMetadata.videoCodec`: `.codecID(.avc)` or `.fourCC(.hevc)`).
///
/// Audio (AAC) packets become audio tags: none before the stream's first video keyframe; the
/// AAC sequence header goes out with the AVC one at the start (from the latest audio packet seen,
/// even a skipped one) or, failing that, before the first audio frame (FLVPacketMuxer+Audio.swift).
///
/// FLV and RTMP timestamps are 32 bits of milliseconds: stream time past 2^32 ms (49.7 days)
/// wraps to 0 and continues, which RTMP readers handle with serial-number arithmetic (RTMP spec
/// §5.3.1.3, RFC 1982). The composition time is taken before the wrap, on 64-bit times.
struct FLVPacketMuxer {
    let muxer = FLVMuxer()
    let metadata: FLVTag
    var gate = KeyframeGate()
    /// The video codec of the stream under way, for its end-of-sequence tag.
    var videoCodec: MediaPacket.Codec?
    /// The AudioSpecificConfig of the latest audio packet, sent or not: what a run that starts at
    /// a video keyframe puts beside the video's sequence header.
    var latestAudioConfiguration: DecoderConfiguration?

    /// Bytes left in front of each picture's tag body for the sender's own headers: RTMP's chunk
    /// headers (`RTMPMediaMessage.requiredHeadroom`), so a picture is not copied again to be sent.
    let headroom: Int

    init(metadata: FLVTag, headroom: Int = 0) {
        self.metadata = metadata
        self.headroom = headroom
    }

    var isStreaming: Bool { gate.isStreaming }

    /// The tags to write for `packet`, in order; empty while waiting for the first keyframe.
    mutating func tags(for packet: MediaPacket) throws(FLVError) -> [FLVTag] {
        if packet.mediaKind == .audio { return try audioTags(for: packet) }
        let admission = gate.admit(packet)
        let timestamp = Self.timestamp(packet.dts)
        guard let frame = try frameTag(packet, at: timestamp) else { return [] }
        switch admission {
        case .skip:
            return []
        case .pass:
            return [frame]
        case .configurationChanged:
            return try codecChange(to: packet.codec, at: timestamp) + [try sequenceHeader(packet, at: timestamp), frame]
        case .start:
            videoCodec = packet.codec
            return [metadata.retimed(to: timestamp), try sequenceHeader(packet, at: timestamp)]
                + (try audioSequenceHeaderAtStart(at: timestamp)) + [frame]
        }
    }

    /// The end-of-sequence tag of the stream's codec at stream time `milliseconds`.
    func endOfSequence(at milliseconds: Int64) -> FLVTag {
        endOfSequence(of: videoCodec ?? .h264, at: Self.timestamp(milliseconds))
    }

    /// The next packet starts a new stream (a new connection or file).
    mutating func restart() {
        gate.restart()
    }

    /// The low 32 bits: FLV's and RTMP's timestamp field, which wraps.
    static func timestamp(_ milliseconds: Int64) -> UInt32 {
        UInt32(truncatingIfNeeded: milliseconds)
    }
}
