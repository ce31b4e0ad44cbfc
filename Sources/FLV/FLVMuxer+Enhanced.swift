/// Enhanced RTMP video tags (veovera E-RTMP v1) for H.265 as 'hvc1': the same stateless shape as
/// the AVC tags, with the FourCC where AVC has its CodecID.
extension FLVMuxer {
    /// The 'hvc1' PacketTypeSequenceStart: a keyframe tag whose data is the record.
    public func sequenceStartTag(_ record: HEVCDecoderConfigurationRecord, timestamp: UInt32) throws(FLVError) -> FLVTag {
        let body = try FLVExVideoTagBody(frameType: .keyframe, packetType: .sequenceStart, fourCC: .hevc, data: record.encoded())
        return try FLVTag(type: .video, timestamp: timestamp, body: body.encoded())
    }

    /// One H.265 frame: its NAL units (without start codes) with four-byte lengths, tagged with
    /// the decoding time; PacketTypeCodedFramesX when pts = dts, as FFmpeg writes it, else
    /// PacketTypeCodedFrames with the composition time. Throws if pts − dts does not fit 24
    /// signed bits or the frame does not fit one tag.
    public func hevcVideoTag(
        nalUnits: [[UInt8]], isKeyframe: Bool, dts: UInt32, compositionTime difference: Int64, headroom: Int = 0
    ) throws(FLVError) -> FLVTag {
        guard let compositionTime = Int32(exactly: difference) else { throw .compositionTimeOutOfRange(difference) }
        let header = try FLVExVideoTagBody.codedFrame(
            isKeyframe: isKeyframe, fourCC: .hevc, compositionTime: compositionTime, data: []).encoded()
        let storage = FLVVideoTagBody.framedAVCCBody(header: header, nalUnits: nalUnits, headroom: headroom)
        return try FLVTag(type: .video, timestamp: dts, storage: storage, headroom: headroom)
    }

    /// The 'hvc1' PacketTypeSequenceEnd (no data) that closes an H.265 stream cleanly.
    public func sequenceEndTag(fourCC: FLVVideoFourCC = .hevc, timestamp: UInt32) -> FLVTag {
        // A five-byte body always fits, and a SequenceEnd carries no composition time.
        var body: [UInt8] = [FLVExVideoTagBody.isExHeaderBit | FLVVideoFrameType.keyframe.rawValue << 4 | FLVVideoPacketType.sequenceEnd.rawValue]
        body.appendU32(fourCC.rawValue)
        return FLVTag(uncheckedType: .video, timestamp: timestamp, body: body)
    }
}
