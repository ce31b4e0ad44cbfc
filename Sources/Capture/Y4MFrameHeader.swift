/// The line in front of each YUV4MPEG2 frame: `FRAME`, optional space-separated parameters
/// (`I`, `X`, as in the stream header), then a newline (mjpegtools `yuv4mpeg.h`).
enum Y4MFrameHeader {
    static let marker: [UInt8] = Array("FRAME".utf8)
    /// The whole line as nearly every writer (ffmpeg included) emits it: no parameters.
    static let plainLine: [UInt8] = Array("FRAME\n".utf8)
}
