import Media

/// The decoder setup of an H.265 stream (ISO/IEC 14496-15 §8.3.3.1), carried in Enhanced RTMP
/// as the body of the 'hvc1' PacketTypeSequenceStart:
///
/// ```
/// configurationVersion = 1                              u8
/// general_profile_space u(2), general_tier_flag u(1), general_profile_idc u(5)
/// general_profile_compatibility_flags                   u32
/// general_constraint_indicator_flags                    u48
/// general_level_idc                                     u8
/// '1111' min_spatial_segmentation_idc                   4+12 bits
/// '111111' parallelismType                              6+2 bits
/// '111111' chromaFormat                                 6+2 bits
/// '11111' bitDepthLumaMinus8                            5+3 bits
/// '11111' bitDepthChromaMinus8                          5+3 bits
/// avgFrameRate                                          u16, frames per 256 s, 0 = unspecified
/// constantFrameRate u(2), numTemporalLayers u(3), temporalIdNested u(1), lengthSizeMinusOne u(2)
/// numOfArrays                                           u8, then per array:
///   array_completeness u(1), reserved 0 u(1), NAL_unit_type u(6)
///   numNalus u16, then each NAL unit as nalUnitLength u16 + bytes
/// ```
public struct HEVCDecoderConfigurationRecord: Equatable, Sendable {
    /// One array of NAL units of one type (VPS, SPS, PPS, SEI).
    public struct NALUnitArray: Equatable, Sendable {
        /// 1: every NAL unit of this type is in the array, none in the stream; 0: some may be
        /// in the stream too.
        public var arrayCompleteness: Bool
        /// nal_unit_type (6 bits): 32 VPS, 33 SPS, 34 PPS, 39/40 SEI.
        public var nalUnitType: UInt8
        /// Whole NAL units, two-byte header included, no start codes.
        public var nalUnits: [[UInt8]]

        public init(arrayCompleteness: Bool, nalUnitType: UInt8, nalUnits: [[UInt8]]) {
            self.arrayCompleteness = arrayCompleteness
            self.nalUnitType = nalUnitType
            self.nalUnits = nalUnits
        }
    }

    public static let configurationVersion: UInt8 = 1

    public let generalProfileSpace: UInt8
    public let generalTierFlag: Bool
    public let generalProfileIDC: UInt8
    public let generalProfileCompatibilityFlags: UInt32
    /// 48 bits.
    public let generalConstraintIndicatorFlags: UInt64
    public let generalLevelIDC: UInt8
    /// 12 bits; 0 = no guarantee about spatial segmentation.
    public let minSpatialSegmentationIDC: UInt16
    /// 0 mixed or unknown, 1 slices, 2 tiles, 3 wavefronts.
    public let parallelismType: UInt8
    /// chroma_format_idc: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    public let chromaFormat: UInt8
    public let bitDepthLumaMinus8: UInt8
    public let bitDepthChromaMinus8: UInt8
    /// Frames per 256 seconds; 0 = unspecified.
    public let avgFrameRate: UInt16
    /// 0 unknown, 1 constant, 2 constant per temporal layer.
    public let constantFrameRate: UInt8
    /// 0 unknown, 1 not temporally scalable, n > 1 n temporal layers.
    public let numTemporalLayers: UInt8
    public let temporalIDNested: Bool
    /// NAL length prefix size minus one: 3 (four-byte lengths) is what Camcast writes.
    public let lengthSizeMinusOne: UInt8
    public let arrays: [NALUnitArray]

    /// Builds the record from values; throws `hevcRecordLimit` when one does not fit its field.
    public init(
        generalProfileSpace: UInt8, generalTierFlag: Bool, generalProfileIDC: UInt8,
        generalProfileCompatibilityFlags: UInt32, generalConstraintIndicatorFlags: UInt64, generalLevelIDC: UInt8,
        minSpatialSegmentationIDC: UInt16 = 0, parallelismType: UInt8 = 0, chromaFormat: UInt8,
        bitDepthLumaMinus8: UInt8, bitDepthChromaMinus8: UInt8, avgFrameRate: UInt16 = 0, constantFrameRate: UInt8 = 0,
        numTemporalLayers: UInt8, temporalIDNested: Bool, lengthSizeMinusOne: UInt8 = 3, arrays: [NALUnitArray]
    ) throws(FLVError) {
        func check(_ value: some BinaryInteger, fits bits: Int, _ name: String) throws(FLVError) {
            guard value < (1 << bits) else { throw .hevcRecordLimit("\(name) \(value) does not fit \(bits) bits") }
        }
        try check(generalProfileSpace, fits: 2, "general_profile_space")
        try check(generalProfileIDC, fits: 5, "general_profile_idc")
        try check(generalConstraintIndicatorFlags, fits: 48, "general_constraint_indicator_flags")
        try check(minSpatialSegmentationIDC, fits: 12, "min_spatial_segmentation_idc")
        try check(parallelismType, fits: 2, "parallelismType")
        try check(chromaFormat, fits: 2, "chromaFormat")
        try check(bitDepthLumaMinus8, fits: 3, "bitDepthLumaMinus8")
        try check(bitDepthChromaMinus8, fits: 3, "bitDepthChromaMinus8")
        try check(constantFrameRate, fits: 2, "constantFrameRate")
        try check(numTemporalLayers, fits: 3, "numTemporalLayers")
        guard lengthSizeMinusOne != 2 else { throw .hevcRecordLimit("lengthSizeMinusOne 2 (only 1, 2 or 4-byte lengths)") }
        try check(lengthSizeMinusOne, fits: 2, "lengthSizeMinusOne")
        try check(arrays.count, fits: 8, "numOfArrays")
        for array in arrays {
            try check(array.nalUnitType, fits: 6, "NAL_unit_type")
            try check(array.nalUnits.count, fits: 16, "numNalus")
            if let long = array.nalUnits.first(where: { $0.count > Int(UInt16.max) }) {
                throw .hevcRecordLimit("NAL unit of \(long.count) bytes, at most 65535")
            }
        }
        self.generalProfileSpace = generalProfileSpace
        self.generalTierFlag = generalTierFlag
        self.generalProfileIDC = generalProfileIDC
        self.generalProfileCompatibilityFlags = generalProfileCompatibilityFlags
        self.generalConstraintIndicatorFlags = generalConstraintIndicatorFlags
        self.generalLevelIDC = generalLevelIDC
        self.minSpatialSegmentationIDC = minSpatialSegmentationIDC
        self.parallelismType = parallelismType
        self.chromaFormat = chromaFormat
        self.bitDepthLumaMinus8 = bitDepthLumaMinus8
        self.bitDepthChromaMinus8 = bitDepthChromaMinus8
        self.avgFrameRate = avgFrameRate
        self.constantFrameRate = constantFrameRate
        self.numTemporalLayers = numTemporalLayers
        self.temporalIDNested = temporalIDNested
        self.lengthSizeMinusOne = lengthSizeMinusOne
        self.arrays = arrays
    }

    /// The NAL units of one type, in the order the record lists them.
    public func nalUnits(ofType type: HEVCNALUnitType) -> [[UInt8]] {
        arrays.filter { $0.nalUnitType == type.rawValue }.flatMap(\.nalUnits)
    }

    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = [
            Self.configurationVersion,
            generalProfileSpace << 6 | (generalTierFlag ? 1 : 0) << 5 | generalProfileIDC,
        ]
        bytes.appendU32(generalProfileCompatibilityFlags)
        bytes.appendU32(UInt32(truncatingIfNeeded: generalConstraintIndicatorFlags >> 16))
        bytes.appendU16(UInt16(truncatingIfNeeded: generalConstraintIndicatorFlags))
        bytes.append(generalLevelIDC)
        bytes.appendU16(0xF000 | minSpatialSegmentationIDC)
        bytes.append(0xFC | parallelismType)
        bytes.append(0xFC | chromaFormat)
        bytes.append(0xF8 | bitDepthLumaMinus8)
        bytes.append(0xF8 | bitDepthChromaMinus8)
        bytes.appendU16(avgFrameRate)
        bytes.append(constantFrameRate << 6 | numTemporalLayers << 3 | (temporalIDNested ? 1 : 0) << 2 | lengthSizeMinusOne)
        bytes.append(UInt8(arrays.count))  // each count and length checked in init
        for array in arrays {
            bytes.append((array.arrayCompleteness ? 0x80 : 0) | array.nalUnitType)
            bytes.appendU16(UInt16(array.nalUnits.count))
            for unit in array.nalUnits {
                bytes.appendU16(UInt16(unit.count))
                bytes.append(contentsOf: unit)
            }
        }
        return bytes
    }

    /// Parses a record; reserved bits are not checked (writers disagree on them), lengths are.
    public init(parsing bytes: some Collection<UInt8>) throws(FLVError) {
        var reader = ByteReader(Array(bytes))
        let version = try reader.readU8()
        guard version == Self.configurationVersion else { throw .unsupportedConfigurationVersion(version) }
        let profile = try reader.readU8()
        let compatibility = try reader.readU32()
        let constraints = UInt64(try reader.readU32()) << 16 | UInt64(try reader.readU16())
        let level = try reader.readU8()
        let segmentation = try reader.readU16() & 0x0FFF
        let parallelism = try reader.readU8() & 0x03
        let chroma = try reader.readU8() & 0x03
        let lumaDepth = try reader.readU8() & 0x07
        let chromaDepth = try reader.readU8() & 0x07
        let frameRate = try reader.readU16()
        let packed = try reader.readU8()
        let arrayCount = Int(try reader.readU8())
        var arrays: [NALUnitArray] = []
        for _ in 0..<arrayCount {
            let header = try reader.readU8()
            let unitCount = Int(try reader.readU16())
            var units: [[UInt8]] = []
            for _ in 0..<unitCount {
                units.append(try reader.readBytes(Int(try reader.readU16())))
            }
            arrays.append(NALUnitArray(arrayCompleteness: header & 0x80 != 0, nalUnitType: header & 0x3F, nalUnits: units))
        }
        try self.init(
            generalProfileSpace: profile >> 6, generalTierFlag: profile & 0x20 != 0, generalProfileIDC: profile & 0x1F,
            generalProfileCompatibilityFlags: compatibility, generalConstraintIndicatorFlags: constraints,
            generalLevelIDC: level, minSpatialSegmentationIDC: segmentation, parallelismType: parallelism,
            chromaFormat: chroma, bitDepthLumaMinus8: lumaDepth, bitDepthChromaMinus8: chromaDepth,
            avgFrameRate: frameRate, constantFrameRate: packed >> 6, numTemporalLayers: packed >> 3 & 0x07,
            temporalIDNested: packed & 0x04 != 0, lengthSizeMinusOne: packed & 0x03, arrays: arrays)
    }
}
