/// Turns an H.264 stream into FLV tags. It keeps no state and does no I/O: the same tags go to
/// a file (`FLVFileWriter`) or to librtmp's `RTMP_Write`, and the order rule — onMetaData, then
/// the sequence header, then a keyframe — belongs to whoever sends them.
public struct FLVMuxer: Sendable {
    public init() {}

    /// The onMetaData script-data tag, at timestamp 0.
    public func metadataTag(_ metadata: FLVMetadata) throws(FLVError) -> FLVTag {
        try FLVTag(type: .scriptData, timestamp: 0, body: metadata.scriptDataBody())
    }

    /// The AVC sequence header: a keyframe video tag with AVCPacketType 0 whose data is the record.
    public func sequenceHeaderTag(_ record: AVCDecoderConfigurationRecord, timestamp: UInt32) throws(FLVError) -> FLVTag {
        let body = try FLVVideoTagBody(frameType: .keyframe, avcPacketType: .sequenceHeader, data: record.encoded())
        return try FLVTag(type: .video, timestamp: timestamp, body: body.encoded())
    }

    /// One frame: its NAL units (without start codes) as AVCC, tagged with the decoding time and
    /// a composition time of pts − dts. Throws if that difference does not fit 24 signed bits or
    /// the frame does not fit one tag.
    public func videoTag(nalUnits: [[UInt8]], isKeyframe: Bool, dts: UInt32, pts: UInt32) throws(FLVError) -> FLVTag {
        try videoTag(nalUnits: nalUnits, isKeyframe: isKeyframe, dts: dts, compositionTime: Int64(pts) - Int64(dts))
    }

    /// The same with the composition time given, for a stream whose 32-bit timestamps wrap
    /// (pts and dts may then lie on either side of the wrap; their difference, taken before
    /// wrapping, does not). `headroom` bytes are reserved in front of the body for the sender
    /// (`FLVTag.headroom`); the NAL units are copied once, straight into the body.
    public func videoTag(
        nalUnits: [[UInt8]], isKeyframe: Bool, dts: UInt32, compositionTime difference: Int64, headroom: Int = 0
    ) throws(FLVError) -> FLVTag {
        guard let compositionTime = Int32(exactly: difference),
              FLVVideoTagBody.compositionTimeRange.contains(compositionTime)
        else { throw .compositionTimeOutOfRange(difference) }
        let header = try FLVVideoTagBody(
            frameType: isKeyframe ? .keyframe : .interFrame, avcPacketType: .nalu,
            compositionTime: compositionTime, data: []).encoded()
        let storage = FLVVideoTagBody.framedAVCCBody(header: header, nalUnits: nalUnits, headroom: headroom)
        return try FLVTag(type: .video, timestamp: dts, storage: storage, headroom: headroom)
    }

    /// The AVC end-of-sequence tag (AVCPacketType 2, no data) that closes a stream cleanly.
    public func endOfSequenceTag(timestamp: UInt32) -> FLVTag {
        // Five bytes and a zero composition time always fit, so neither initializer can throw.
        let body = FLVVideoTagBody.endOfSequenceBody
        return FLVTag(uncheckedType: .video, timestamp: timestamp, body: body)
    }
}
