/// The decoder setup of an H.264 stream (ISO/IEC 14496-15 §5.3.3.1), carried in FLV as the body
/// of the AVC sequence header (AVCPacketType 0):
///
/// ```
/// configurationVersion = 1          u8
/// AVCProfileIndication              u8   (profile_idc of the SPS)
/// profile_compatibility             u8   (the SPS's constraint flags byte)
/// AVCLevelIndication                u8   (level_idc)
/// '111111' lengthSizeMinusOne       6+2 bits
/// '111' numOfSequenceParameterSets  3+5 bits, then each SPS as u16 length + bytes
/// numOfPictureParameterSets         u8, then each PPS as u16 length + bytes
/// if profile_idc is 100, 110, 122 or 144:
///   '111111' chroma_format          6+2 bits
///   '11111' bit_depth_luma_minus8   5+3 bits
///   '11111' bit_depth_chroma_minus8 5+3 bits
///   numOfSequenceParameterSetExt    u8, then each as u16 length + bytes
/// ```
///
/// Many writers omit the High-profile tail, so a parse accepts a record that ends after the PPS.
public struct AVCDecoderConfigurationRecord: Equatable, Sendable {
    /// The profiles for which the record carries the chroma/bit-depth tail (§5.3.3.1.1).
    public static let profilesWithExtension: Set<UInt8> = [100, 110, 122, 144]

    /// The High-profile tail of the record.
    public struct HighProfileExtension: Equatable, Sendable {
        /// chroma_format_idc: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
        public var chromaFormat: UInt8
        public var bitDepthLumaMinus8: UInt8
        public var bitDepthChromaMinus8: UInt8
        public var sequenceParameterSetExtensions: [[UInt8]]

        public init(chromaFormat: UInt8, bitDepthLumaMinus8: UInt8, bitDepthChromaMinus8: UInt8,
                    sequenceParameterSetExtensions: [[UInt8]] = []) {
            self.chromaFormat = chromaFormat
            self.bitDepthLumaMinus8 = bitDepthLumaMinus8
            self.bitDepthChromaMinus8 = bitDepthChromaMinus8
            self.sequenceParameterSetExtensions = sequenceParameterSetExtensions
        }
    }

    public static let configurationVersion: UInt8 = 1

    public let profileIndication: UInt8
    public let profileCompatibility: UInt8
    public let levelIndication: UInt8
    /// NAL length prefix size minus one: 3 (four-byte lengths) is what we write.
    public let lengthSizeMinusOne: UInt8
    /// Whole SPS NAL units, header byte included.
    public let sequenceParameterSets: [[UInt8]]
    /// Whole PPS NAL units, header byte included.
    public let pictureParameterSets: [[UInt8]]
    public let highProfileExtension: HighProfileExtension?

    /// Builds the record from values; throws `parameterSetLimit` when a count or a length does
    /// not fit its field.
    public init(
        profileIndication: UInt8, profileCompatibility: UInt8, levelIndication: UInt8,
        lengthSizeMinusOne: UInt8 = 3, sequenceParameterSets: [[UInt8]], pictureParameterSets: [[UInt8]],
        highProfileExtension: HighProfileExtension? = nil
    ) throws(FLVError) {
        guard lengthSizeMinusOne != 2, lengthSizeMinusOne <= 3 else {
            throw .parameterSetLimit("lengthSizeMinusOne \(lengthSizeMinusOne) is not 0, 1 or 3")
        }
        guard sequenceParameterSets.count <= 31 else {
            throw .parameterSetLimit("\(sequenceParameterSets.count) SPS, at most 31")
        }
        guard pictureParameterSets.count <= 255 else {
            throw .parameterSetLimit("\(pictureParameterSets.count) PPS, at most 255")
        }
        let all = sequenceParameterSets + pictureParameterSets + (highProfileExtension?.sequenceParameterSetExtensions ?? [])
        if let long = all.first(where: { $0.count > Int(UInt16.max) }) {
            throw .parameterSetLimit("parameter set of \(long.count) bytes, at most 65535")
        }
        if let ext = highProfileExtension {
            guard ext.sequenceParameterSetExtensions.count <= 255 else {
                throw .parameterSetLimit("\(ext.sequenceParameterSetExtensions.count) SPS extensions, at most 255")
            }
            guard ext.chromaFormat <= 3, ext.bitDepthLumaMinus8 <= 7, ext.bitDepthChromaMinus8 <= 7 else {
                throw .parameterSetLimit("chroma format or bit depth does not fit its field")
            }
        }
        self.profileIndication = profileIndication
        self.profileCompatibility = profileCompatibility
        self.levelIndication = levelIndication
        self.lengthSizeMinusOne = lengthSizeMinusOne
        self.sequenceParameterSets = sequenceParameterSets
        self.pictureParameterSets = pictureParameterSets
        self.highProfileExtension = highProfileExtension
    }

    /// Builds the record for one SPS and one PPS (whole NAL units, no start codes), reading
    /// profile, compatibility, level and — for High profiles — chroma format and bit depths from
    /// the SPS itself.
    public init(sps: [UInt8], pps: [UInt8]) throws(FLVError) {
        let parsed = try H264SequenceParameterSet(nalUnit: sps)
        guard let ppsHeader = pps.first else { throw .notAPPS(nalUnitType: nil) }
        guard ppsHeader & 0x1F == 8 else { throw .notAPPS(nalUnitType: ppsHeader & 0x1F) }
        var ext: HighProfileExtension?
        if Self.profilesWithExtension.contains(parsed.profileIDC) {
            ext = HighProfileExtension(
                chromaFormat: UInt8(parsed.chromaFormatIDC),
                bitDepthLumaMinus8: UInt8(parsed.bitDepthLumaMinus8),
                bitDepthChromaMinus8: UInt8(parsed.bitDepthChromaMinus8))
        }
        try self.init(
            profileIndication: parsed.profileIDC, profileCompatibility: parsed.constraintFlags,
            levelIndication: parsed.levelIDC, sequenceParameterSets: [sps], pictureParameterSets: [pps],
            highProfileExtension: ext)
    }

    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = [
            Self.configurationVersion, profileIndication, profileCompatibility, levelIndication,
            0xFC | lengthSizeMinusOne,
            0xE0 | UInt8(sequenceParameterSets.count),
        ]
        Self.appendParameterSets(sequenceParameterSets, to: &bytes)
        bytes.append(UInt8(pictureParameterSets.count))
        Self.appendParameterSets(pictureParameterSets, to: &bytes)
        if let ext = highProfileExtension {
            bytes.append(0xFC | ext.chromaFormat)
            bytes.append(0xF8 | ext.bitDepthLumaMinus8)
            bytes.append(0xF8 | ext.bitDepthChromaMinus8)
            bytes.append(UInt8(ext.sequenceParameterSetExtensions.count))
            Self.appendParameterSets(ext.sequenceParameterSetExtensions, to: &bytes)
        }
        return bytes
    }

    /// Parses a record; reserved bits are not checked (writers disagree on them), lengths are.
    public init(parsing bytes: some Collection<UInt8>) throws(FLVError) {
        var reader = ByteReader(Array(bytes))
        let version = try reader.readU8()
        guard version == Self.configurationVersion else { throw .unsupportedConfigurationVersion(version) }
        let profile = try reader.readU8()
        let compatibility = try reader.readU8()
        let level = try reader.readU8()
        let lengthSizeMinusOne = try reader.readU8() & 0x03
        let spsCount = Int(try reader.readU8() & 0x1F)
        let sps = try Self.readParameterSets(count: spsCount, from: &reader)
        let ppsCount = Int(try reader.readU8())
        let pps = try Self.readParameterSets(count: ppsCount, from: &reader)
        var ext: HighProfileExtension?
        if Self.profilesWithExtension.contains(profile), !reader.isAtEnd {
            let chroma = try reader.readU8() & 0x03
            let luma = try reader.readU8() & 0x07
            let chromaDepth = try reader.readU8() & 0x07
            let extCount = Int(try reader.readU8())
            ext = HighProfileExtension(
                chromaFormat: chroma, bitDepthLumaMinus8: luma, bitDepthChromaMinus8: chromaDepth,
                sequenceParameterSetExtensions: try Self.readParameterSets(count: extCount, from: &reader))
        }
        try self.init(
            profileIndication: profile, profileCompatibility: compatibility, levelIndication: level,
            lengthSizeMinusOne: lengthSizeMinusOne, sequenceParameterSets: sps, pictureParameterSets: pps,
            highProfileExtension: ext)
    }

    private static func appendParameterSets(_ sets: [[UInt8]], to bytes: inout [UInt8]) {
        for set in sets {
            bytes.appendU16(UInt16(set.count))  // checked ≤ 65535 in init
            bytes.append(contentsOf: set)
        }
    }

    private static func readParameterSets(count: Int, from reader: inout ByteReader) throws(FLVError) -> [[UInt8]] {
        var sets: [[UInt8]] = []
        for _ in 0..<count {
            let length = Int(try reader.readU16())
            sets.append(try reader.readBytes(length))
        }
        return sets
    }
}
