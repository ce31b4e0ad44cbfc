internal import CAVCodec
import Logging

/// A named libavcodec H.264/H.265 encoder as a session backend, fed software frames: the hardware
/// encoders libavcodec wraps (h264_v4l2m2m/hevc_v4l2m2m on SoCs, h264_nvenc, h264_qsv, h264_omx)
/// and libavcodec's libx264. The first backend that really works through asynchronous queues:
/// `send` is `avcodec_send_frame`, `receive` is `avcodec_receive_packet`, and their EAGAIN/EOF
/// are the contract's `.full`, `.needsInput` and `.drained` (see `EncoderBackend`).
///
/// Not thread-safe: `EncoderSession` keeps it inside its lock. Each picture is copied into an
/// AVFrame this backend allocated before `.accepted` (the session's planes are borrowed for the
/// call only); libavcodec keeps a reference to that frame's buffer while it holds the picture,
/// so the next send writes into a fresh one (`av_frame_make_writable`).
final class AVCodecEncoder: EncoderBackend {
    /// The libavcodec encoder name (`h264_v4l2m2m`).
    let name: String
    private(set) var settings: EncoderSettings
    let context: UnsafeMutablePointer<AVCodecContext>
    let frame: UnsafeMutablePointer<AVFrame>
    private let packet: UnsafeMutablePointer<AVPacket>
    /// The stream headers from extradata; empty when the encoder writes none there (they then
    /// come in band with the first keyframe, and the session takes them from it).
    let headers: [[UInt8]]
    /// Set when extradata was an avcC record: packets may then be length-prefixed with this size.
    let lengthSize: Int?
    private let logger: Logger
    /// `sendEndOfStream` ran: no more sends.
    private var isEnded = false
    /// The end of the stream is still to be sent: libavcodec answered EAGAIN, holding a picture.
    private var endPending = false

    /// libavcodec encoders known to apply a changed `bit_rate` at the next frame: libx264's
    /// wrapper compares it with x264's parameters before each picture (`reconfig_encoder` in
    /// libavcodec/libx264.c) and calls `x264_encoder_reconfig`. Others read it at open only.
    static let liveBitrateEncoders: Set<String> = ["libx264"]

    init(settings: EncoderSettings, logger: Logger) throws(EncoderError) {
        guard case .avcodec(let name) = settings.implementation else {
            throw .openFailed("AVCodecEncoder opened without an avcodec:NAME encoder")
        }
        let problems = settings.validate()
        guard problems.isEmpty else { throw .invalidSettings(problems) }
        self.name = name
        self.settings = settings
        self.logger = logger
        context = try Self.open(name, settings: settings)
        let frame = cavcodec_video_frame_new(context), packet = av_packet_alloc()
        guard let frame, let packet else {
            cavcodec_frame_free(frame)
            cavcodec_packet_free(packet)
            cavcodec_close(context)
            throw .openFailed("avcodec:\(name): out of memory for its frame and packet")
        }
        self.frame = frame
        self.packet = packet
        let opened = context
        let extradata = opened.pointee.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(opened.pointee.extradata_size))) } ?? []
        do throws(EncoderError) {
            (headers, lengthSize) = try Self.headers(in: extradata, codec: settings.codec, encoder: name)
        } catch {
            // Not every property is set yet, so deinit does not run: free here.
            cavcodec_frame_free(frame)
            cavcodec_packet_free(packet)
            cavcodec_close(opened)
            throw error
        }
        if headers.isEmpty { logger.info("avcodec encoder writes no global headers; they come with the first keyframe", metadata: ["encoder": "\(name)"]) }
    }

    deinit {
        cavcodec_frame_free(frame)
        cavcodec_packet_free(packet)
        cavcodec_close(context)
    }

    func streamHeaders() throws(EncoderError) -> [[UInt8]] { headers }

    func send(_ image: X264InputImage, pts: Int64, forceIDR: Bool) throws(EncoderError) -> EncoderSendStatus {
        guard !isEnded else { throw .closed }
        try fill(frame, from: image)
        cavcodec_frame_set_picture(frame, pts, forceIDR ? 1 : 0)
        let status = avcodec_send_frame(context, frame)
        if status == cavcodec_error_again() { return .full }
        guard status >= 0 else { throw .encodeFailed(status: Int(status)) }
        return .accepted
    }

    /// Sends the NULL frame; if libavcodec still holds a picture it cannot take it yet (EAGAIN),
    /// and `receive` sends it again between packets.
    func sendEndOfStream() throws(EncoderError) {
        guard !isEnded else { return }
        isEnded = true
        endPending = true
        try sendPendingEnd()
    }

    func receive() throws(EncoderError) -> EncoderReceiveStatus {
        // Bounded: each round libavcodec either takes the end, gives a packet or uses up a held
        // picture; one that does none of these would loop forever.
        for _ in 0..<1000 {
            try sendPendingEnd()
            let status = avcodec_receive_packet(context, packet)
            if status >= 0 {
                defer { av_packet_unref(packet) }
                return .picture(try output(from: packet))
            }
            if status == cavcodec_error_eof() { return .drained }
            guard status == cavcodec_error_again() else { throw .encodeFailed(status: Int(status)) }
            if !endPending { return .needsInput }
        }
        throw .malformedOutput("avcodec:\(name) neither took the end of the stream nor returned a picture")
    }

    /// Applies a new average (and the VBV that follows it) where the encoder reads it per frame;
    /// elsewhere says so, so adaptive bitrate knows the rate did not change.
    func reconfigure(bitrateKbps: Int) throws(EncoderError) {
        guard bitrateKbps != settings.bitrateKbps else { return }
        guard Self.liveBitrateEncoders.contains(name) else {
            throw .bitrateChangeUnsupported(encoder: "avcodec:\(name)", kbps: settings.bitrateKbps)
        }
        Self.setRate(context, kbps: bitrateKbps, settings: settings)
        settings.bitrateKbps = bitrateKbps
    }

    private func sendPendingEnd() throws(EncoderError) {
        guard endPending else { return }
        let status = avcodec_send_frame(context, nil)
        if status == cavcodec_error_again() { return }
        endPending = false
        guard status >= 0 || status == cavcodec_error_eof() else { throw .encodeFailed(status: Int(status)) }
    }

    /// The VBV drained at the average rate with a buffer of `vbvBufferKbits`, as the x264 backend
    /// sets it (the mode in which x264 follows a changed average at all).
    static func setRate(_ context: UnsafeMutablePointer<AVCodecContext>, kbps: Int, settings: EncoderSettings) {
        cavcodec_set_rate(context, Int64(kbps) * 1000, Int64(kbps) * 1000, Int64(settings.vbvBufferKbits(forAverage: kbps)) * 1000)
    }

    private static func unusedOptions(_ dictionary: OpaquePointer?) -> [String] {
        var names: [String] = []
        var previous: UnsafePointer<AVDictionaryEntry>?
        while let key = cavcodec_dictionary_next_key(dictionary, &previous) {
            names.append(String(cString: key))
        }
        return names
    }

    /// Opens the encoder; a refusal names the encoder and what libavcodec logged as the reason.
    private static func open(_ name: String, settings: EncoderSettings) throws(EncoderError) -> UnsafeMutablePointer<AVCodecContext> {
        let info = cavcodec_encoder_lookup(name)
        // The layout the conversion stage makes for this codec, where the encoder takes it.
        let wantsNV12 = !settings.codec.readsPlanarOnly
        let nv12 = info.takes_nv12 != 0 && (wantsNV12 || info.takes_i420 == 0)
        // The options set before the open are tried on every encoder, whichever has them: a
        // value one does not know is no reason to fail, nor to warn about.
        let (made, _) = LibavLog.capturing {
            withOpenSettings(settings, nv12: nv12) { options in name.withCString { cavcodec_video_context_new($0, options) } }
        }
        guard made != nil else { throw .openFailed("libavcodec could not make a context for avcodec:\(name)") }
        var context = made
        var dictionary: OpaquePointer?
        defer { cavcodec_dictionary_free(&dictionary) }
        for option in settings.codecOptions {
            _ = cavcodec_dictionary_set(&dictionary, option.name, option.value)
        }
        let (status, logged) = LibavLog.capturing { cavcodec_open_video(&context, &dictionary) }
        guard status >= 0, let context else {
            var text = [CChar](repeating: 0, count: 128)
            cavcodec_error_text(status, &text, text.count)
            let code = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let reason = logged.isEmpty ? code : "\(logged.map(\.text).joined(separator: "; ")) (\(code))"
            throw .openFailed("libavcodec could not open avcodec:\(name): \(reason)")
        }
        LibavLog.log(logged, component: name)
        // validate() found each name in the encoder's tables; one the open still did not use
        // (a context option this encoder ignores) would otherwise be silently without effect.
        let unused = unusedOptions(dictionary)
        guard unused.isEmpty else {
            cavcodec_close(context)
            throw .openFailed("avcodec:\(name) did not use encoder.options \(unused.joined(separator: ", "))")
        }
        return context
    }
}
