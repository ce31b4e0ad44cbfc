/// The CodecID nibble of an FLV video tag (FLV spec v10.1, annex E.4.3.1): the low four bits of
/// the body's first byte, and the value of onMetaData's `videocodecid`.
public enum FLVVideoCodecID: UInt8, Sendable, CaseIterable {
    case sorensonH263 = 2
    case screenVideo = 3
    case vp6 = 4
    case vp6WithAlpha = 5
    case screenVideo2 = 6
    case avc = 7
}
