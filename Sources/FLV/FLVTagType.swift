/// The TagType field of an FLV tag header (FLV spec v10.1, annex E.4.1): the low five bits of the
/// tag's first byte.
public enum FLVTagType: UInt8, Sendable, CaseIterable {
    case audio = 8
    case video = 9
    case scriptData = 18
}
