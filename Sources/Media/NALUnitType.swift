/// `nal_unit_type`, the low five bits of an H.264 NAL unit header (ITU-T H.264 §7.4.1, Table 7-1).
///
/// Values the table leaves reserved (17, 18, 22, 23) or unspecified (0, 24–31) have no case:
/// they never occur in an encoder's byte stream, and a parser rejects them.
public enum NALUnitType: UInt8, Sendable, Hashable, CaseIterable {
    /// Coded slice of a non-IDR picture.
    case slice = 1
    case sliceDataPartitionA = 2
    case sliceDataPartitionB = 3
    case sliceDataPartitionC = 4
    /// Coded slice of an IDR picture: decoding can start here.
    case idr = 5
    /// Supplemental enhancement information (x264 writes its settings string in one).
    case sei = 6
    /// Sequence parameter set.
    case sps = 7
    /// Picture parameter set.
    case pps = 8
    /// Access unit delimiter.
    case aud = 9
    case endOfSequence = 10
    case endOfStream = 11
    case fillerData = 12
    case spsExtension = 13
    case prefix = 14
    case subsetSPS = 15
    case depthParameterSet = 16
    case auxiliarySlice = 19
    case sliceExtension = 20
    case sliceExtensionDepth = 21

    /// Whether this NAL carries picture data (a VCL NAL unit, Table 7-1 "Annex A" column).
    public var isVideoCodingLayer: Bool {
        (1...5).contains(rawValue)
    }
}
