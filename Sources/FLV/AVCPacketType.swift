/// The AVCPacketType byte of an AVC video tag (FLV spec v10.1, annex E.4.3.1, AVCVIDEOPACKET).
public enum AVCPacketType: UInt8, Sendable, CaseIterable {
    /// The body is an AVCDecoderConfigurationRecord.
    case sequenceHeader = 0
    /// The body is one frame's NAL units with 4-byte length prefixes (AVCC).
    case nalu = 1
    /// Empty body; tells the decoder the stream ended.
    case endOfSequence = 2
}
