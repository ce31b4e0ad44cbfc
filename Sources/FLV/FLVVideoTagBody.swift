/// The body of an AVC video tag (FLV spec v10.1, annex E.4.3.1, VIDEODATA with AVCVIDEOPACKET):
///
/// | bits | field |
/// |---|---|
/// | 4 | FrameType |
/// | 4 | CodecID, 7 = AVC |
/// | 8 | AVCPacketType |
/// | 24 | CompositionTime, signed, milliseconds (pts − dts; 0 unless packet type is NALU) |
/// | … | data: a decoder configuration record, AVCC NAL units, or nothing |
///
/// Only AVC is modelled, so `codecID` is fixed and a parse of another codec fails; an Enhanced
/// RTMP body (IsExHeader set) is `FLVExVideoTagBody`, and `FLVVideoData` reads either.
public struct FLVVideoTagBody: Equatable, Sendable {
    /// The range of the signed 24-bit CompositionTime field.
    public static let compositionTimeRange: ClosedRange<Int32> = -0x80_0000...0x7F_FFFF
    /// Bytes before `data`.
    public static let headerSize = 5

    public var frameType: FLVVideoFrameType
    public var codecID: FLVVideoCodecID { .avc }
    public var avcPacketType: AVCPacketType
    public let compositionTime: Int32
    public var data: [UInt8]

    /// Throws `compositionTimeOutOfRange` if `compositionTime` does not fit 24 signed bits.
    public init(
        frameType: FLVVideoFrameType, avcPacketType: AVCPacketType, compositionTime: Int32 = 0, data: [UInt8]
    ) throws(FLVError) {
        guard Self.compositionTimeRange.contains(compositionTime) else {
            throw .compositionTimeOutOfRange(Int64(compositionTime))
        }
        self.frameType = frameType
        self.avcPacketType = avcPacketType
        self.compositionTime = compositionTime
        self.data = data
    }

    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.headerSize + data.count)
        bytes.append(frameType.rawValue << 4 | codecID.rawValue)
        bytes.append(avcPacketType.rawValue)
        bytes.appendU24(UInt32(bitPattern: compositionTime))  // two's complement, low 24 bits
        bytes.append(contentsOf: data)
        return bytes
    }

    public init(parsing bytes: some Collection<UInt8>) throws(FLVError) {
        var reader = ByteReader(Array(bytes))
        let first = try reader.readU8()
        guard first & FLVExVideoTagBody.isExHeaderBit == 0 else { throw .enhancedVideoTag(packetType: first & 0x0F) }
        guard first & 0x0F == FLVVideoCodecID.avc.rawValue else { throw .unsupportedVideoCodec(first & 0x0F) }
        guard let frameType = FLVVideoFrameType(rawValue: first >> 4) else { throw .unknownVideoFrameType(first >> 4) }
        let packetByte = try reader.readU8()
        guard let packetType = AVCPacketType(rawValue: packetByte) else { throw .unknownAVCPacketType(packetByte) }
        let raw = try reader.readU24()
        // Sign-extend the 24-bit field: shift it to the top of an Int32 and back.
        let compositionTime = Int32(bitPattern: raw << 8) >> 8
        try self.init(frameType: frameType, avcPacketType: packetType, compositionTime: compositionTime,
                      data: reader.readRest())
    }

    /// Keyframe, AVC, AVCPacketType 2, CompositionTime 0, no data.
    static let endOfSequenceBody: [UInt8] = [
        FLVVideoFrameType.keyframe.rawValue << 4 | FLVVideoCodecID.avc.rawValue,
        AVCPacketType.endOfSequence.rawValue, 0, 0, 0,
    ]
}
