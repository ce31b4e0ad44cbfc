internal import CAVFormat
import Media
import Outputs

#if canImport(Glibc)
import Glibc
#endif

/// MPEG-TS for one network connection, from libavformat's mpegts muxer (the one `record:` with
/// `container: ts` uses) into an I/O buffer of `messageSize` bytes, each full buffer one message
/// for the sink: 7 × 188 = 1316 bytes for SRT. The muxer writes PAT/PMT before every video
/// keyframe and puts the parameter sets in front of it, so a receiver can join at any GOP; the
/// stream starts at `keyframe`. Times are milliseconds of the stream clock (the TS's 90 kHz
/// clock gets them as they are, so they go on across a reconnect).
package final class TransportStreamMuxer: ConnectionMuxer {
    private var muxer: UnsafeMutablePointer<cavformat_mp4>?
    private let sink: Sink
    private let hasAudio: Bool
    private var lastDts: [Int64] = [.min, .min]

    /// The Swift side of the C sink callback, kept alive by the muxer.
    private final class Sink {
        let send: (UnsafeRawBufferPointer) -> Bool
        init(_ send: @escaping (UnsafeRawBufferPointer) -> Bool) { self.send = send }
    }

    package init(
        keyframe: MediaPacket, stream: RecordedStream, audioConfiguration: [UInt8]?, messageSize: Int,
        sink send: @escaping (UnsafeRawBufferPointer) -> Bool
    ) throws(ConnectionMuxerError) {
        sink = Sink(send)
        let audio = (audioConfiguration ?? stream.audioSampleRate.flatMap {
            AudioSpecificConfig.lowComplexity(sampleRate: $0, channels: stream.audioChannels ?? 2)
        }).flatMap { config in
            (AudioSpecificConfig.sampleRate(of: config) ?? stream.audioSampleRate).map { (config: config, rate: $0, channels: stream.audioChannels ?? 2) }
        }
        hasAudio = audio != nil
        let video = SegmentFile.annexB(keyframe.decoderConfiguration.parameterSets)
        var created: UnsafeMutablePointer<cavformat_mp4>?
        cavformat_quiet()
        let context = Unmanaged.passUnretained(sink).toOpaque()
        let result = video.withUnsafeBufferPointer { videoBytes in
            (audio?.config ?? []).withUnsafeBufferPointer { audioBytes in
                cavformat_open_io(
                    &created, -1, Self.deliver, context, Int32(messageSize), 1, keyframe.codec == .h265 ? 1 : 0,
                    Int32(stream.width), Int32(stream.height), videoBytes.baseAddress, Int32(videoBytes.count), Int32(audio?.rate ?? 0),
                    Int32(audio?.channels ?? 0), audio == nil ? nil : audioBytes.baseAddress, Int32(audioBytes.count))
            }
        }
        guard result >= 0, let created else {
            cavformat_mp4_free(created)
            throw .muxer("MPEG-TS muxer: \(SegmentFile.text(result))")
        }
        muxer = created
        try write(keyframe)
    }

    deinit { cavformat_mp4_free(muxer) }

    /// The C callback: one buffer of the muxer's to the Swift sink; EPIPE once it said no.
    private static let deliver: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int32) -> Int32 = { context, data, size in
        guard let context else { return EINVAL }
        let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
        return sink.send(UnsafeRawBufferPointer(start: data, count: Int(size))) ? 0 : EPIPE
    }

    /// Muxes one packet and pushes the muxer's buffer out, so a picture's last bytes do not wait
    /// for the next one (a short message, whole TS packets).
    package func write(_ packet: MediaPacket) throws(ConnectionMuxerError) {
        guard let muxer else { return }
        let isVideo = packet.mediaKind == .video
        guard isVideo || hasAudio else { return }
        let stream = isVideo ? 0 : 1
        // The muxer refuses a decode time that does not move on.
        guard packet.dts > lastDts[stream] else { return }
        lastDts[stream] = packet.dts
        let data = isVideo ? SegmentFile.annexB(packet.units) : (packet.units.first ?? [])
        let result = data.withUnsafeBufferPointer {
            cavformat_mp4_write(muxer, Int32(stream), $0.baseAddress, Int32($0.count), packet.pts, packet.dts, 0, 1000, packet.isKeyframe ? 1 : 0)
        }
        try check(result)
        if isVideo { try check(cavformat_io_flush(muxer)) }
    }

    package func finish() throws(ConnectionMuxerError) {
        guard let muxer else { return }
        try check(cavformat_mp4_finish(muxer))
    }

    private func check(_ result: Int32) throws(ConnectionMuxerError) {
        guard result < 0 else { return }
        if muxer?.pointee.write_errno == EPIPE { throw .sinkFailed }
        throw .muxer("MPEG-TS muxer: \(SegmentFile.text(result))")
    }
}
