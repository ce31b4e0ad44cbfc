import FLV
import Media

/// Where FLV's two video tag families part: legacy AVC tags for H.264, Enhanced RTMP v1 'hvc1'
/// tags for H.265 (veovera E-RTMP v1; FFmpeg ≥ 6.1, OBS ≥ 29.1, YouTube read them).
extension FLVPacketMuxer {
    /// The tag carrying the packet's picture, or nil for a packet that is not video.
    func frameTag(_ packet: MediaPacket, at timestamp: UInt32) throws(FLVError) -> FLVTag? {
        switch packet.codec {
        case .h264:
            try muxer.videoTag(
                nalUnits: packet.units, isKeyframe: packet.isKeyframe, dts: timestamp, compositionTime: packet.compositionTimeOffset,
                headroom: headroom)
        case .h265:
            // CodedFramesX when pts = dts (every frame of a stream without B-frames), else
            // CodedFrames with the composition time, as FFmpeg's flvenc chooses.
            try muxer.hevcVideoTag(
                nalUnits: packet.units, isKeyframe: packet.isKeyframe, dts: timestamp, compositionTime: packet.compositionTimeOffset,
                headroom: headroom)
        case .aac:
            nil  // audio tags are not muxed here
        }
    }

    /// The decoder configuration in front of a stream or a changed configuration: an AVC
    /// sequence header from [SPS, PPS], or an 'hvc1' SequenceStart from [VPS, SPS, PPS].
    func sequenceHeader(_ packet: MediaPacket, at timestamp: UInt32) throws(FLVError) -> FLVTag {
        let sets = packet.decoderConfiguration.parameterSets
        switch packet.codec {
        case .h265:
            let record = try HEVCDecoderConfigurationRecord(parameterSets: sets)
            return try muxer.sequenceStartTag(record, timestamp: timestamp)
        case .h264, .aac:
            let record = try AVCDecoderConfigurationRecord(sps: sets.first ?? [], pps: sets.count > 1 ? sets[1] : [])
            return try muxer.sequenceHeaderTag(record, timestamp: timestamp)
        }
    }

    /// When a configuration change is also a codec change (H.264 to H.265 or back), the old
    /// codec's sequence ends first, so a reader does not feed the new pictures to the old decoder.
    mutating func codecChange(to codec: MediaPacket.Codec, at timestamp: UInt32) throws(FLVError) -> [FLVTag] {
        guard let previous = videoCodec, previous != codec else {
            videoCodec = codec
            return []
        }
        videoCodec = codec
        return [endOfSequence(of: previous, at: timestamp)]
    }

    func endOfSequence(of codec: MediaPacket.Codec, at timestamp: UInt32) -> FLVTag {
        switch codec {
        case .h265: muxer.sequenceEndTag(fourCC: .hevc, timestamp: timestamp)
        case .h264, .aac: muxer.endOfSequenceTag(timestamp: timestamp)
        }
    }
}
