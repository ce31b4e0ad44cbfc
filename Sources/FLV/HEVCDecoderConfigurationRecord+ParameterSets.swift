import Media

extension HEVCDecoderConfigurationRecord {
    /// Builds the record from an encoder's parameter sets (whole NAL units with their two-byte
    /// headers, no start codes): at least one VPS, SPS and PPS, in any order; each type becomes
    /// one array, VPS then SPS then PPS. The fields are read from the sets themselves, the way
    /// ISO/IEC 14496-15 §8.3.3.1.2 defines them:
    /// - profile, tier, level, compatibility and constraint flags from the VPS's and SPS's
    ///   profile_tier_level: the highest tier and profile, the highest level of that tier, the
    ///   flags every set has;
    /// - chroma format, bit depths, temporal nesting from the (first) SPS; numTemporalLayers =
    ///   the most sub-layers any set declares;
    /// - min_spatial_segmentation_idc from the SPS's VUI (0 without one), and parallelismType from
    ///   the PPS when that is above 0 (the type only qualifies a segmentation guarantee; 0 = unknown);
    /// - avgFrameRate and constantFrameRate 0 (unspecified): parameter sets need not carry timing,
    ///   and FLV timestamps are what players use.
    ///
    /// `arrayCompleteness` is false by default, as FFmpeg's flvenc writes it: parameter sets may
    /// also appear in the stream. (Camcast sends them only here; true would also be correct.)
    public init(parameterSets: [[UInt8]], arrayCompleteness: Bool = false) throws(FLVError) {
        var byType: [HEVCNALUnitType: [[UInt8]]] = [:]
        for set in parameterSets {
            let type = HEVCNALUnitType.rawType(of: set)
            guard let kind = type.flatMap(HEVCNALUnitType.init(rawValue:)),
                  kind == .vps || kind == .sps || kind == .pps
            else { throw .notAnHEVCParameterSet(expected: "VPS, SPS or PPS", nalUnitType: type) }
            byType[kind, default: []].append(set)
        }
        guard let vpsUnit = byType[.vps]?.first else { throw .notAnHEVCParameterSet(expected: "VPS", nalUnitType: nil) }
        guard let spsUnit = byType[.sps]?.first else { throw .notAnHEVCParameterSet(expected: "SPS", nalUnitType: nil) }
        guard let ppsUnit = byType[.pps]?.first else { throw .notAnHEVCParameterSet(expected: "PPS", nalUnitType: nil) }
        let vps = try H265VideoParameterSet(nalUnit: vpsUnit)
        let sps = try H265SequenceParameterSet(nalUnit: spsUnit)
        let pps = try H265PictureParameterSet(nalUnit: ppsUnit)
        guard sps.bitDepthLumaMinus8 <= 7, sps.bitDepthChromaMinus8 <= 7 else {
            throw .hevcRecordLimit("bit depth above 15 does not fit the record's 3-bit fields")
        }

        let levels = [vps.profileTierLevel, sps.profileTierLevel]
        let tier = levels.map(\.tierFlag).max() ?? 0
        let segmentation = UInt16(sps.minSpatialSegmentationIDC ?? 0)
        let arrays = [HEVCNALUnitType.vps, .sps, .pps].map {
            NALUnitArray(arrayCompleteness: arrayCompleteness, nalUnitType: $0.rawValue, nalUnits: byType[$0] ?? [])
        }
        try self.init(
            generalProfileSpace: sps.profileTierLevel.profileSpace,
            generalTierFlag: tier == 1,
            generalProfileIDC: levels.map(\.profileIDC).max() ?? 0,
            generalProfileCompatibilityFlags: levels.reduce(UInt32.max) { $0 & $1.profileCompatibilityFlags },
            generalConstraintIndicatorFlags: levels.reduce(0xFFFF_FFFF_FFFF) { $0 & $1.constraintIndicatorFlags },
            generalLevelIDC: levels.filter { $0.tierFlag == tier }.map(\.levelIDC).max() ?? 0,
            minSpatialSegmentationIDC: segmentation,
            parallelismType: segmentation == 0 ? 0 : pps.parallelismType,
            chromaFormat: UInt8(sps.chromaFormatIDC),
            bitDepthLumaMinus8: UInt8(sps.bitDepthLumaMinus8),
            bitDepthChromaMinus8: UInt8(sps.bitDepthChromaMinus8),
            numTemporalLayers: UInt8(max(vps.maxSubLayersMinus1, sps.maxSubLayersMinus1) + 1),
            temporalIDNested: sps.temporalIDNesting,
            arrays: arrays)
    }
}
