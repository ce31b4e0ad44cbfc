import Logging

/// What a codec library does for an `EncoderSession`: the session owns the lock, the keyframe
/// schedule, the recovery policy and delivery; a backend only turns pictures (I420 or NV12 at the
/// stream's size, made by the conversion stage before the session) into NAL units. One backend
/// per library (x264, x265); not thread-safe, kept inside the session's Mutex.
///
/// The contract is send/receive, after FFmpeg's `avcodec_send_frame`/`avcodec_receive_packet`
/// (and V4L2 mem2mem's queue/dequeue), so that an encoder working through asynchronous buffer
/// queues fits it as well as a one-call library does. The session sends a picture; a backend that
/// holds all it can answers `.full` ("receive first"), and the session receives and sends again.
/// After each send the session receives until `.needsInput`, delivering every picture it got, in
/// order. At the end it sends the end of the stream and receives until `.drained`. x264 and x265
/// fit it trivially: a send encodes, the following receive returns what that call produced
/// (delayed pictures included).
protocol EncoderBackend: AnyObject {
    /// Opens the library's encoder with `settings` (already validated by the session).
    init(settings: EncoderSettings, logger: Logger) throws(EncoderError)

    /// The stream headers, in decoder-configuration order: [SPS, PPS] for H.264, [VPS, SPS, PPS]
    /// for H.265.
    func streamHeaders() throws(EncoderError) -> [[UInt8]]

    /// Offers one picture with `pts` in milliseconds; an IDR when `forceIDR`. The image's planes
    /// are borrowed for this call only (a camera buffer goes back to the driver afterwards): a
    /// backend that queues a picture copies it before returning `.accepted`. `.full` leaves the
    /// picture with the caller, who must `receive` before sending it again.
    func send(_ image: X264InputImage, pts: Int64, forceIDR: Bool) throws(EncoderError) -> EncoderSendStatus

    /// Ends the input: the backend takes no picture after this, and `receive` returns what it
    /// still holds, then `.drained`.
    func sendEndOfStream() throws(EncoderError)

    /// The next encoded picture, in the order the stream carries them; `.needsInput` when none is
    /// finished yet (a hardware encoder may still be working on what it holds: no waiting then).
    /// After a send answered `.full`, though, receive waits until it has a picture (for a mem2mem
    /// device: until a capture buffer is done), or the session could never go on; or it answers
    /// `.needsInput` having made room by using what it held (libavcodec encoding its buffered
    /// frame into lookahead), and the session sends again.
    func receive() throws(EncoderError) -> EncoderReceiveStatus

    /// Changes the average bitrate (and the VBV that follows it) from the next picture on.
    func reconfigure(bitrateKbps: Int) throws(EncoderError)
}

/// A backend's answer to `send` (FFmpeg's 0 and EAGAIN).
enum EncoderSendStatus: Equatable {
    /// The picture is the backend's now.
    case accepted
    /// The backend holds all it can: receive first, then send the same picture again.
    case full
}

/// A backend's answer to `receive` (FFmpeg's 0, EAGAIN and EOF).
enum EncoderReceiveStatus {
    case picture(EncoderBackendOutput)
    /// Nothing ready until another picture is sent.
    case needsInput
    /// After `sendEndOfStream`: every picture was returned.
    case drained
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
