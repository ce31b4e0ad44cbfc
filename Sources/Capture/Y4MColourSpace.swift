/// The `C` parameter of a YUV4MPEG2 stream header: sampling and chroma siting.
///
/// The names are the ones the format defines (mjpegtools `yuv4mpeg.h`, and
/// https://wiki.multimedia.cx/index.php/YUV4MPEG2). A header without `C` means `420jpeg`.
/// Every 4:2:0 variant lays its planes out identically (Y, then Cb, then Cr, each subsampled
/// 2×2); siting differs only in where the chroma samples sit, which x264 does not need.
public enum Y4MColourSpace: String, Sendable, CaseIterable {
    case c420jpeg = "420jpeg"
    case c420mpeg2 = "420mpeg2"
    case c420paldv = "420paldv"
    case c420 = "420"
    case c411 = "411"
    case c422 = "422"
    case c444 = "444"
    case c444alpha = "444alpha"
    case mono = "mono"

    /// Whether frames are 8-bit planar 4:2:0, which Camcast hands to x264 as I420 without a copy.
    public var isI420: Bool {
        switch self {
        case .c420jpeg, .c420mpeg2, .c420paldv, .c420: true
        case .c411, .c422, .c444, .c444alpha, .mono: false
        }
    }
}
