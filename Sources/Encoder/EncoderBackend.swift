import Logging

/// What a codec library does for an `EncoderSession`: the session owns the lock, the keyframe
/// schedule, the recovery policy and delivery; a backend only turns pictures (I420 or NV12 at the
/// stream's size, made by the conversion stage before the session)
/// into NAL units. One backend per library (x264, x265); not thread-safe, kept inside the
/// session's Mutex.
protocol EncoderBackend: AnyObject {
    /// Opens the library's encoder with `settings` (already validated by the session).
    init(settings: EncoderSettings, logger: Logger) throws(EncoderError)

    /// The stream headers, in decoder-configuration order: [SPS, PPS] for H.264, [VPS, SPS, PPS]
    /// for H.265.
    func streamHeaders() throws(EncoderError) -> [[UInt8]]

    /// Encodes one picture with `pts` in milliseconds; an IDR when `forceIDR`. Nil while the
    /// library holds the picture back.
    func encodePicture(_ image: X264InputImage, pts: Int64, forceIDR: Bool) throws(EncoderError) -> EncoderBackendOutput?

    /// The next picture still held back, or nil when none is left. The backend takes no new
    /// picture after this was called.
    func drainPicture() throws(EncoderError) -> EncoderBackendOutput?

    /// Changes the average bitrate (and the VBV that follows it) from the next picture on.
    func reconfigure(bitrateKbps: Int) throws(EncoderError)
}

/// One access unit as a backend produced it.
struct EncoderBackendOutput {
    /// Every NAL unit of the access unit, header bytes first, no start code or length prefix.
    var units: [[UInt8]]
    /// An IDR picture.
    var isKeyframe: Bool
    var pts: Int64
    var dts: Int64
}
