/// The FrameType nibble of an FLV video tag (FLV spec v10.1, annex E.4.3.1): the high four bits
/// of the body's first byte.
public enum FLVVideoFrameType: UInt8, Sendable, CaseIterable {
    /// A seekable frame; for AVC, an IDR picture.
    case keyframe = 1
    case interFrame = 2
    /// H.263 only.
    case disposableInterFrame = 3
    /// Reserved for server use.
    case generatedKeyframe = 4
    /// Video info/command frame.
    case commandFrame = 5
}
