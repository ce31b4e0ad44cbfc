/// The PacketType nibble of an Enhanced RTMP ExVideoTagHeader (veovera E-RTMP v1, table
/// "Extended VideoTagHeader"): the low four bits of the body's first byte when its IsExHeader bit
/// is set, where a legacy tag has its CodecID.
public enum FLVVideoPacketType: UInt8, Sendable, CaseIterable {
    /// PacketTypeSequenceStart: the body is the codec's configuration record
    /// (for 'hvc1', an HEVCDecoderConfigurationRecord).
    case sequenceStart = 0
    /// PacketTypeCodedFrames: an SI24 CompositionTime offset, then one frame's NAL units.
    case codedFrames = 1
    /// PacketTypeSequenceEnd: no data; the sequence ended.
    case sequenceEnd = 2
    /// PacketTypeCodedFramesX: as CodedFrames with a CompositionTime of 0 left off the wire.
    case codedFramesX = 3
    /// PacketTypeMetadata: an AMF-encoded ["colorInfo", Object] pair, no video data; the frame
    /// type nibble is to be ignored.
    case metadata = 4
    /// PacketTypeMPEG2TSSequenceStart: an AV1VideoDescriptor (AV1 only).
    case mpeg2TSSequenceStart = 5
}
