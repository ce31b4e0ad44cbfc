/// The video FourCC of an Enhanced RTMP ExVideoTagHeader (veovera E-RTMP v1, "Video FourCC"):
/// four ASCII characters read as one big-endian UI32, which is also the value of onMetaData's
/// `videocodecid` when a FourCC signals the codec ('av01' == 0x61763031 == 1635135537.0).
///
/// Camcast writes `hevc` only; AV1 and VP9 are here as values so a reader can name them.
public enum FLVVideoFourCC: UInt32, Sendable, CaseIterable {
    /// 'hvc1': H.265 / HEVC; SequenceStart carries an HEVCDecoderConfigurationRecord.
    case hevc = 0x6876_6331
    /// 'av01': AV1; SequenceStart carries an AV1CodecConfigurationRecord.
    case av1 = 0x6176_3031
    /// 'vp09': VP9; SequenceStart carries a VPCodecConfigurationRecord.
    case vp9 = 0x7670_3039

    /// The four characters, for messages: "hvc1".
    public var text: String { Self.text(rawValue) }

    /// onMetaData's `videocodecid` for this codec: the FourCC as a number.
    public var metadataValue: Double { Double(rawValue) }

    /// Any UI32 as four characters where they are printable ASCII, else as hex digits.
    static func text(_ value: UInt32) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return "0x" + String(value, radix: 16) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
