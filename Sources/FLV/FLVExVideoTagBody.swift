/// The body of an Enhanced RTMP video tag (veovera E-RTMP v1, "Extended VideoTagHeader" and
/// "VideoTagBody"): an ExVideoTagHeader, signalled by the IsExHeader bit, then the data.
///
/// | bits | field |
/// |---|---|
/// | 1 | IsExHeader = 1 (a legacy tag's FrameType never reached 8, so this bit was always 0) |
/// | 3 | FrameType (1 keyframe, 2 inter frame, …); ignored for PacketTypeMetadata |
/// | 4 | PacketType (`FLVVideoPacketType`), where a legacy tag has its CodecID |
/// | 32 | Video FourCC, big-endian ('hvc1') |
/// | 24 | CompositionTime, signed, milliseconds: only for 'hvc1' PacketTypeCodedFrames |
/// | … | data: a configuration record, length-prefixed NAL units, AMF metadata, or nothing |
public struct FLVExVideoTagBody: Equatable, Sendable {
    /// The high bit of the first byte.
    public static let isExHeaderBit: UInt8 = 0x80
    /// Bytes before `data` when no CompositionTime is carried: the flags byte and the FourCC.
    public static let headerSize = 5

    /// nil for PacketTypeMetadata, whose frame type bits the spec says to ignore (written as 0).
    public let frameType: FLVVideoFrameType?
    public let packetType: FLVVideoPacketType
    public let fourCC: FLVVideoFourCC
    /// pts − dts in milliseconds; non-zero only where the field is on the wire.
    public let compositionTime: Int32
    public var data: [UInt8]

    /// Throws `unknownVideoFrameType(0)` for a missing frame type on a packet that needs one,
    /// `compositionTimeOutOfRange` for a composition time that does not fit 24 signed bits or that
    /// this packet type and FourCC do not carry (CodedFramesX is CodedFrames with a time of 0).
    public init(
        frameType: FLVVideoFrameType?, packetType: FLVVideoPacketType, fourCC: FLVVideoFourCC,
        compositionTime: Int32 = 0, data: [UInt8]
    ) throws(FLVError) {
        guard frameType != nil || packetType == .metadata else { throw .unknownVideoFrameType(0) }
        guard FLVVideoTagBody.compositionTimeRange.contains(compositionTime),
              compositionTime == 0 || Self.carriesCompositionTime(packetType, fourCC)
        else { throw .compositionTimeOutOfRange(Int64(compositionTime)) }
        // Metadata's frame type bits mean nothing: kept as nil, so a parse gives back what was built.
        self.frameType = packetType == .metadata ? nil : frameType
        self.packetType = packetType
        self.fourCC = fourCC
        self.compositionTime = compositionTime
        self.data = data
    }

    /// One coded frame, as FFmpeg's flvenc writes it: PacketTypeCodedFramesX when the
    /// composition time is 0 (three bytes fewer), PacketTypeCodedFrames with the time otherwise.
    public static func codedFrame(
        isKeyframe: Bool, fourCC: FLVVideoFourCC = .hevc, compositionTime: Int32, data: [UInt8]
    ) throws(FLVError) -> FLVExVideoTagBody {
        try FLVExVideoTagBody(
            frameType: isKeyframe ? .keyframe : .interFrame,
            packetType: compositionTime == 0 ? .codedFramesX : .codedFrames, fourCC: fourCC,
            compositionTime: compositionTime, data: data)
    }

    /// The SI24 follows the FourCC only in 'hvc1' CodedFrames (AV1 and VP9 frames have none).
    static func carriesCompositionTime(_ packetType: FLVVideoPacketType, _ fourCC: FLVVideoFourCC) -> Bool {
        packetType == .codedFrames && fourCC == .hevc
    }

    public var isKeyframe: Bool { frameType == .keyframe }

    public func encoded() -> [UInt8] {
        let carriesTime = Self.carriesCompositionTime(packetType, fourCC)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.headerSize + (carriesTime ? 3 : 0) + data.count)
        bytes.append(Self.isExHeaderBit | (frameType?.rawValue ?? 0) << 4 | packetType.rawValue)
        bytes.appendU32(fourCC.rawValue)
        if carriesTime {
            bytes.appendU24(UInt32(bitPattern: compositionTime))  // two's complement, low 24 bits
        }
        bytes.append(contentsOf: data)
        return bytes
    }

    /// Parses a body whose IsExHeader bit is set. Fails, as the spec asks, on anything it does
    /// not understand: a frame type, PacketType or FourCC E-RTMP v1 does not define.
    public init(parsing bytes: some Collection<UInt8>) throws(FLVError) {
        var reader = ByteReader(Array(bytes))
        let first = try reader.readU8()
        guard first & Self.isExHeaderBit != 0 else { throw .unsupportedVideoCodec(first & 0x0F) }
        let packetNibble = first & 0x0F
        guard let packetType = FLVVideoPacketType(rawValue: packetNibble) else { throw .unknownVideoPacketType(packetNibble) }
        let frameNibble = first >> 4 & 0x07
        var frameType: FLVVideoFrameType?
        if packetType != .metadata {
            guard let known = FLVVideoFrameType(rawValue: frameNibble) else { throw .unknownVideoFrameType(frameNibble) }
            frameType = known
        }
        let fourCCValue = try reader.readU32()
        guard let fourCC = FLVVideoFourCC(rawValue: fourCCValue) else { throw .unsupportedVideoFourCC(fourCCValue) }
        var compositionTime: Int32 = 0
        if Self.carriesCompositionTime(packetType, fourCC) {
            // Sign-extend the 24-bit field: shift it to the top of an Int32 and back.
            compositionTime = Int32(bitPattern: try reader.readU24() << 8) >> 8
        }
        try self.init(
            frameType: frameType, packetType: packetType, fourCC: fourCC, compositionTime: compositionTime,
            data: reader.readRest())
    }
}
