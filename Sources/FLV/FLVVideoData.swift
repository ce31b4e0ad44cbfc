/// The body of any video tag Camcast reads (FLV spec v10.1 annex E.4.3 VIDEODATA, extended by
/// veovera E-RTMP v1): a legacy AVC body, or an Enhanced RTMP body when the first byte's high
/// bit — IsExHeader — is set.
public enum FLVVideoData: Equatable, Sendable {
    /// FrameType | CodecID 7, AVCPacketType, CompositionTime (H.264).
    case legacy(FLVVideoTagBody)
    /// IsExHeader | FrameType | PacketType, FourCC, … (H.265 as 'hvc1').
    case enhanced(FLVExVideoTagBody)

    public init(parsing bytes: some Collection<UInt8>) throws(FLVError) {
        guard let first = bytes.first else { throw .truncated(needed: 1, available: 0) }
        if first & FLVExVideoTagBody.isExHeaderBit != 0 {
            self = .enhanced(try FLVExVideoTagBody(parsing: bytes))
        } else {
            self = .legacy(try FLVVideoTagBody(parsing: bytes))
        }
    }

    public func encoded() -> [UInt8] {
        switch self {
        case .legacy(let body): body.encoded()
        case .enhanced(let body): body.encoded()
        }
    }

    /// A frame a decoder can start at (FrameType 1).
    public var isKeyframe: Bool {
        switch self {
        case .legacy(let body): body.frameType == .keyframe
        case .enhanced(let body): body.isKeyframe
        }
    }

    /// The decoder configuration: an AVC sequence header or an E-RTMP SequenceStart.
    public var isSequenceHeader: Bool {
        switch self {
        case .legacy(let body): body.avcPacketType == .sequenceHeader
        case .enhanced(let body): body.packetType == .sequenceStart
        }
    }

    /// A coded picture: AVC NALU or E-RTMP CodedFrames / CodedFramesX.
    public var isCodedFrame: Bool {
        switch self {
        case .legacy(let body): body.avcPacketType == .nalu
        case .enhanced(let body): body.packetType == .codedFrames || body.packetType == .codedFramesX
        }
    }

    /// The end of the stream: AVC end of sequence or E-RTMP SequenceEnd.
    public var isEndOfSequence: Bool {
        switch self {
        case .legacy(let body): body.avcPacketType == .endOfSequence
        case .enhanced(let body): body.packetType == .sequenceEnd
        }
    }

    public var compositionTime: Int32 {
        switch self {
        case .legacy(let body): body.compositionTime
        case .enhanced(let body): body.compositionTime
        }
    }

    /// What follows the header: a record, length-prefixed NAL units, or nothing.
    public var data: [UInt8] {
        switch self {
        case .legacy(let body): body.data
        case .enhanced(let body): body.data
        }
    }
}
