internal import CAVCodec
import Media

/// One open libavcodec "aac" encoder (AAC-LC) with its reusable frame and packet.
///
/// Not thread-safe: AACEncoderSession keeps it behind its lock.
final class LibavAACEncoder {
    struct Packet {
        var pts: Int64
        var bytes: [UInt8]
    }

    let format: AudioFormat
    private let context: UnsafeMutablePointer<AVCodecContext>
    private let frame: UnsafeMutablePointer<AVFrame>
    private let packet: UnsafeMutablePointer<AVPacket>
    /// Samples per AAC frame (1024 for AAC-LC).
    let frameSize: Int
    /// The AudioSpecificConfig (ISO 14496-3 1.6.2.1) the encoder wrote to extradata.
    let audioSpecificConfig: [UInt8]

    init(format: AudioFormat, bitrateKbps: Int) throws(AACEncoderError) {
        cavcodec_quiet()
        var opened: UnsafeMutablePointer<AVCodecContext>?
        let status = cavcodec_open_aac(&opened, Int32(format.sampleRate), Int32(format.channels), Int64(bitrateKbps) * 1000)
        guard status == 0, let context = opened else {
            throw .openFailed(code: status, message: Self.message(status))
        }
        guard let extradata = context.pointee.extradata, context.pointee.extradata_size > 0 else {
            cavcodec_close(context)
            throw .openFailed(code: 0, message: "the encoder wrote no AudioSpecificConfig")
        }
        let frameSize = Int(context.pointee.frame_size)
        guard frameSize > 0, let frame = cavcodec_frame_new(context, Int32(frameSize)) else {
            cavcodec_close(context)
            throw .openFailed(code: 0, message: "could not allocate an audio frame")
        }
        guard let packet = av_packet_alloc() else {
            cavcodec_frame_free(frame)
            cavcodec_close(context)
            throw .openFailed(code: 0, message: "could not allocate a packet")
        }
        self.format = format
        self.context = context
        self.frame = frame
        self.packet = packet
        self.frameSize = frameSize
        audioSpecificConfig = Self.coreConfig(Array(UnsafeBufferPointer(start: extradata, count: Int(context.pointee.extradata_size))))
    }

    /// The AudioSpecificConfig without the trailing "no SBR" sync extension libavcodec appends
    /// (syncExtensionType 0x2B7, object type 5, sbrPresentFlag 0: 3 more bytes that only restate
    /// the default). The 2-byte AAC-LC form is what FLV muxers and RTMP ingests are used to, and
    /// some older parsers take a longer config for HE-AAC.
    static func coreConfig(_ config: [UInt8]) -> [UInt8] {
        let objectType = config.first.map { $0 >> 3 }
        guard objectType == 2, config.count == 5, config[2] == 0x56, config[3] & 0xE0 == 0xE0 else { return config }
        // 0x56 0xE? = 0x2B7 (11 bits) then object type 5 (5 bits); the last bit of byte 4 is sbrPresentFlag.
        guard config[3] & 0x1F == 0x05, config[4] & 0x80 == 0 else { return config }
        return Array(config[0..<2])
    }

    deinit {
        cavcodec_packet_free(packet)
        cavcodec_frame_free(frame)
        cavcodec_close(context)
    }

    /// Encodes `frames` (≤ frameSize) interleaved S16 sample frames stamped `pts` (in samples);
    /// returns the packets the encoder completed (it holds one frame back: the first call gives none).
    func encode(_ samples: [Int16], frames: Int, pts: Int64) throws(AACEncoderError) -> [Packet] {
        precondition(frames > 0 && frames <= frameSize && samples.count == frames * format.channels)
        // The encoder may still reference the last frame's buffers; get writable ones first.
        let writable = av_frame_make_writable(frame)
        guard writable >= 0 else { throw .encodeFailed(call: "av_frame_make_writable", code: writable, message: Self.message(writable)) }
        frame.pointee.nb_samples = Int32(frames)
        frame.pointee.pts = pts
        // S16 interleaved to the float planes the native encoder takes.
        let channels = format.channels
        samples.withUnsafeBufferPointer { source in
            for channel in 0..<channels {
                let plane = cavcodec_frame_plane(frame, Int32(channel))!
                var index = channel
                for i in 0..<frames {
                    plane[i] = Float(source[index]) * (1 / 32768)
                    index += channels
                }
            }
        }
        let sent = avcodec_send_frame(context, frame)
        guard sent >= 0 else { throw .encodeFailed(call: "avcodec_send_frame", code: sent, message: Self.message(sent)) }
        return try receive()
    }

    /// Signals the end of input and returns every packet the encoder still holds.
    func drain() throws(AACEncoderError) -> [Packet] {
        let sent = avcodec_send_frame(context, nil)
        guard sent >= 0 || sent == cavcodec_error_eof() else {
            throw .encodeFailed(call: "avcodec_send_frame(NULL)", code: sent, message: Self.message(sent))
        }
        return try receive()
    }

    private func receive() throws(AACEncoderError) -> [Packet] {
        var packets: [Packet] = []
        while true {
            let status = avcodec_receive_packet(context, packet)
            if status == cavcodec_error_again() || status == cavcodec_error_eof() { return packets }
            guard status >= 0 else { throw .encodeFailed(call: "avcodec_receive_packet", code: status, message: Self.message(status)) }
            let bytes = Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
            packets.append(Packet(pts: packet.pointee.pts, bytes: bytes))
            av_packet_unref(packet)
        }
    }

    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        cavcodec_error_text(code, &buffer, buffer.count)
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
