import Media

/// Everything that can go wrong reading or writing FLV, AMF0, or an AVC or HEVC decoder configuration.
///
/// Each case names one specific problem so a caller (and a test) can tell them apart; the
/// associated values are the facts needed to diagnose it. No case ever carries media payload.
public enum FLVError: Error, Equatable, Sendable, CustomStringConvertible {
    // MARK: FLV container (FLV spec v10.1, annex E)
    /// The first three bytes were not "FLV".
    case badSignature([UInt8])
    /// The header's version byte was not 1.
    case unsupportedVersion(UInt8)
    /// The header's DataOffset is smaller than the 9 bytes the header itself occupies.
    case badHeaderSize(UInt32)
    /// More bytes were needed than were available.
    case truncated(needed: Int, available: Int)
    /// A PreviousTagSize field did not match the size of the tag before it.
    case previousTagSizeMismatch(expected: UInt32, found: UInt32)
    /// A tag's TagType is not audio (8), video (9) or script data (18).
    case unknownTagType(UInt8)
    /// The tag's Filter bit is set: the body is encrypted, which Camcast does not support.
    case encryptedTag
    /// A tag's StreamID was not 0.
    case nonZeroStreamID(UInt32)
    /// A tag body larger than the 24-bit DataSize field can describe.
    case tagTooLarge(Int)

    // MARK: Video tag body
    /// A video tag with a codec other than AVC (7).
    case unsupportedVideoCodec(UInt8)
    /// The FrameType nibble is not one the spec defines.
    case unknownVideoFrameType(UInt8)
    /// The AVCPacketType byte is not 0, 1 or 2.
    case unknownAVCPacketType(UInt8)
    /// A composition time that does not fit the signed 24-bit CompositionTime field.
    case compositionTimeOutOfRange(Int64)
    /// An AVCC NAL length prefix claims more bytes than the payload holds.
    case nalLengthOverrun(declared: Int, available: Int)

    // MARK: Enhanced RTMP video (veovera E-RTMP v1, ExVideoTagHeader)
    /// An ExVideoTagHeader PacketType that E-RTMP v1 does not define (6…15).
    case unknownVideoPacketType(UInt8)
    /// An ExVideoTagHeader FourCC other than the ones E-RTMP defines ('hvc1', 'av01', 'vp09').
    case unsupportedVideoFourCC(UInt32)
    /// An Enhanced RTMP body handed to the legacy AVC parser (FLVVideoData reads both).
    case enhancedVideoTag(packetType: UInt8)

    // MARK: Audio tag body and AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1)
    /// An audio tag with a SoundFormat other than AAC (10).
    case unsupportedSoundFormat(UInt8)
    /// The AACPacketType byte is not 0 or 1.
    case unknownAACPacketType(UInt8)
    /// An AudioSpecificConfig that is cut short, reserved or out of range.
    case malformedAudioSpecificConfig(String)

    // MARK: AMF0 (AMF0 spec)
    /// A type marker that AMF0 does not define or that Camcast does not decode.
    case badAMF0Marker(UInt8)
    /// A string too long for its 16-bit length field (a property key, or a `.string` value).
    case stringTooLong(Int)
    /// Objects or arrays nested deeper than the decoder allows.
    case amf0NestingTooDeep(Int)
    /// More values (properties and array elements included) than the decoder allows.
    case amf0TooManyValues(Int)
    /// A script-data body that is not "onMetaData" followed by an ECMA array or object.
    case notOnMetaData
    /// onMetaData lacks a field Camcast requires, or has it with the wrong type or an invalid value.
    case badMetadataField(String)

    // MARK: AVCDecoderConfigurationRecord (ISO/IEC 14496-15 §5.3.3.1) and parameter sets
    /// The record's configurationVersion is not 1.
    case unsupportedConfigurationVersion(UInt8)
    /// A record with too many parameter sets (31 SPS, 255 PPS) or one longer than 65535 bytes.
    case parameterSetLimit(String)
    /// The SPS is shorter than the NAL header plus profile, constraint flags and level.
    case spsTooShort(length: Int)
    /// The NAL unit given as an SPS has another nal_unit_type.
    case notAnSPS(nalUnitType: UInt8)
    /// The NAL unit given as a PPS is empty or has another nal_unit_type.
    case notAPPS(nalUnitType: UInt8?)
    /// The SPS syntax could not be read (a field runs past the end or is out of range).
    case malformedSPS(String)

    // MARK: HEVCDecoderConfigurationRecord (ISO/IEC 14496-15 §8.3.3.1) and H.265 parameter sets
    /// The NAL unit given as an H.265 VPS, SPS or PPS (`expected`) is empty or of another type.
    case notAnHEVCParameterSet(expected: String, nalUnitType: UInt8?)
    /// An H.265 parameter set's syntax could not be read; the text names the set and the field.
    case malformedHEVCParameterSet(String)
    /// A value that does not fit its HEVCDecoderConfigurationRecord field (a bit depth above 15,
    /// more than 65535 NAL units in an array, a NAL unit longer than 65535 bytes, …).
    case hevcRecordLimit(String)

    // MARK: Files
    /// A system call failed on a file.
    case io(operation: String, path: String, errno: Int32)
    /// `write` or `close` was called on a writer that was already closed.
    case writerClosed

    public var description: String {
        switch self {
        case .badSignature(let bytes):
            "not an FLV file: signature is \(bytes.map { String($0, radix: 16) }) instead of \"FLV\""
        case .unsupportedVersion(let version):
            "unsupported FLV version \(version) (only 1 exists)"
        case .badHeaderSize(let size):
            "FLV header DataOffset \(size) is smaller than the 9-byte header"
        case .truncated(let needed, let available):
            "truncated data: needed \(needed) bytes, only \(available) available"
        case .previousTagSizeMismatch(let expected, let found):
            "PreviousTagSize is \(found), the tag before it was \(expected) bytes"
        case .unknownTagType(let type):
            "unknown FLV tag type \(type)"
        case .encryptedTag:
            "encrypted FLV tags (Filter bit set) are not supported"
        case .nonZeroStreamID(let id):
            "FLV tag StreamID is \(id), must be 0"
        case .tagTooLarge(let size):
            "tag body of \(size) bytes exceeds the 24-bit DataSize limit of 16777215"
        case .unsupportedVideoCodec(let id):
            "unsupported FLV video codec id \(id) (only AVC, 7)"
        case .unknownVideoFrameType(let type):
            "unknown FLV video frame type \(type)"
        case .unknownAVCPacketType(let type):
            "unknown AVCPacketType \(type)"
        case .compositionTimeOutOfRange(let value):
            "composition time \(value) ms does not fit a signed 24-bit field"
        case .nalLengthOverrun(let declared, let available):
            "AVCC NAL unit length \(declared) overruns the \(available) bytes left in the payload"
        case .unknownVideoPacketType(let type):
            "unknown Enhanced RTMP video PacketType \(type)"
        case .enhancedVideoTag(let packetType):
            "an Enhanced RTMP video tag (IsExHeader set, PacketType \(packetType)) is not a legacy AVC tag"
        case .unsupportedVideoFourCC(let fourCC):
            "unsupported Enhanced RTMP video FourCC \(FLVVideoFourCC.text(fourCC)) (0x\(String(fourCC, radix: 16)))"
        case .unsupportedSoundFormat(let format):
            "unsupported FLV sound format \(format) (only AAC, 10)"
        case .unknownAACPacketType(let type):
            "unknown AACPacketType \(type)"
        case .malformedAudioSpecificConfig(let reason):
            "malformed AudioSpecificConfig: \(reason)"
        case .badAMF0Marker(let marker):
            "unsupported or invalid AMF0 type marker 0x\(String(marker, radix: 16))"
        case .stringTooLong(let length):
            "string of \(length) bytes is too long for a 16-bit AMF0 length"
        case .amf0NestingTooDeep(let depth):
            "AMF0 values nested more than \(depth) levels deep"
        case .amf0TooManyValues(let limit):
            "more than \(limit) AMF0 values"
        case .notOnMetaData:
            "script data is not an onMetaData AMF0 string followed by an ECMA array"
        case .badMetadataField(let name):
            "onMetaData field \"\(name)\" is missing or has the wrong type"
        case .unsupportedConfigurationVersion(let version):
            "decoder configuration record configurationVersion \(version), expected 1"
        case .parameterSetLimit(let what):
            "AVCDecoderConfigurationRecord limit exceeded: \(what)"
        case .spsTooShort(let length):
            "SPS of \(length) bytes is too short (needs at least 4)"
        case .notAnSPS(let type):
            "NAL unit type \(type) given where an SPS (7) was expected"
        case .notAPPS(let type):
            if let type { "NAL unit type \(type) given where a PPS (8) was expected" } else { "empty PPS" }
        case .malformedSPS(let reason):
            "malformed SPS: \(reason)"
        case .notAnHEVCParameterSet(let expected, let type):
            if let type { "H.265 NAL unit type \(type) given where a \(expected) was expected" } else { "empty H.265 \(expected)" }
        case .malformedHEVCParameterSet(let reason):
            "malformed H.265 \(reason)"
        case .hevcRecordLimit(let what):
            "HEVCDecoderConfigurationRecord limit exceeded: \(what)"
        case .io(let operation, let path, let errno):
            "\(operation) failed on \(path): \(SystemCallError.message(errno)) (errno \(errno))"
        case .writerClosed:
            "FLV file writer is already closed"
        }
    }
}
