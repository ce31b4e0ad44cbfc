/// The `I` parameter of a YUV4MPEG2 stream header (mjpegtools `yuv4mpeg.h`).
///
/// Camcast encodes every picture as progressive; the field order is kept only so a header
/// round-trips.
public enum Y4MInterlacing: Character, Sendable, CaseIterable {
    case progressive = "p"
    case topFieldFirst = "t"
    case bottomFieldFirst = "b"
    /// Per-frame, given in each FRAME header.
    case mixed = "m"
    case unknown = "?"
}
