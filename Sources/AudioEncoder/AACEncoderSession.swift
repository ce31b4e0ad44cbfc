import Logging
import Media

/// A live AAC-LC encoding session (libavcodec's native encoder): PCM `AudioFrame`s in,
/// `MediaPacket`s (`.aac`, one raw AAC frame each) out through the output handler.
///
/// The same contract as the video session (EncoderSession): the codec sits behind one
/// `Mutex`, so `encode`, `flush` and `close` may be called from any thread; packets are delivered
/// on the thread that called `encode` or `flush`, after that lock is released, in order (a second
/// lock, `producer`, keeps concurrent callers' packets in sequence).
///
/// Input is buffered into 1024-sample blocks (one AAC frame each), whatever the frames' length.
/// A packet's `captureTime` is the capture instant of the first sample it decodes to; `dts` = `pts`
/// is that instant on the stream clock, computed as the video packets are (capture milliseconds
/// minus the origin's), so audio and video share stream time 0 when given the same origin.
public final class AACEncoderSession: Sendable {
    public let settings: AACEncoderSettings
    /// The AudioSpecificConfig every packet carries as its decoder configuration (for a muxer
    /// that needs it before the first packet: FLV's AAC sequence header).
    public let audioSpecificConfig: [UInt8]
    private let logger: Logger
    /// Each `encode`'s packets and the next packet's stream time (nil from `flush`), in one call.
    private let deliver: @Sendable ([MediaPacket], Int64?) -> Void
    private let state: Lock<State>
    /// Held by `encode` and `flush` from the codec call until their packets are delivered.
    /// Never taken under `state`.
    private let producer = Lock(())
    private let leadInLimitNanoseconds: UInt64

    struct State {
        var encoder: LibavAACEncoder?
        var blocks: AudioBlockBuffer
        var clock: AACPacketClock
        /// The encoder pts (in samples) of the next block.
        var nextPTS: Int64 = 0
        var deliveredPackets = 0
        var packetsBeforeOrigin = 0
        /// The encoder pts of the last packet handed out (or left out before the origin).
        var lastPacketPTS: Int64?
        /// Until the first frame came: the origin silence may lead in from (`AudioLeadIn`).
        var leadInOrigin: MonotonicTime?
    }

    /// Opens the encoder. `streamOrigin` is the capture instant that is stream time
    /// `streamStartMilliseconds` (the video's first picture, so both tracks start together); nil
    /// takes the first sample's. Throws `.invalidSettings` listing every problem, or `.openFailed`.
    ///
    /// `announceNext` is told, after the packets of an `encode` went to `output`, the stream time
    /// of the packet the encoder will hand out next (a frame's length after the last: the encoder
    /// keeps two frames back, so the time is known a frame before the packet), for an interleaver
    /// that would otherwise hold a picture until that packet came.
    public convenience init(
        settings: AACEncoderSettings,
        streamOrigin: MonotonicTime? = nil,
        streamStartMilliseconds: Int64 = 0,
        logger: Logger = Logger(label: "camcast.audio-encoder"),
        announceNext: @escaping @Sendable (Int64) -> Void = { _ in },
        output: @escaping @Sendable (MediaPacket) -> Void
    ) throws(AACEncoderError) {
        try self.init(
            settings: settings, streamOrigin: streamOrigin, streamStartMilliseconds: streamStartMilliseconds, logger: logger
        ) { packets, next in
            for packet in packets { output(packet) }
            if let next { announceNext(next) }
        }
    }

    /// As above, with each `encode`'s packets and what `announceNext` would be told handed over in
    /// one call (`next` is nil from `flush`, or before the first packet): an interleaver then takes
    /// its lock once for both.
    ///
    /// `leadInLimitNanoseconds`: a first sample up to this much after `streamOrigin` is preceded
    /// by silence from the origin (`AudioLeadIn`); 0, none.
    public init(
        settings: AACEncoderSettings,
        streamOrigin: MonotonicTime? = nil,
        streamStartMilliseconds: Int64 = 0,
        leadInLimitNanoseconds: UInt64 = 0,
        logger: Logger = Logger(label: "camcast.audio-encoder"),
        deliver: @escaping @Sendable (_ packets: [MediaPacket], _ next: Int64?) -> Void
    ) throws(AACEncoderError) {
        let problems = settings.problems()
        guard problems.isEmpty else { throw .invalidSettings(problems) }
        let encoder = try LibavAACEncoder(format: settings.format, bitrateKbps: settings.bitrateKbps)
        self.settings = settings
        self.audioSpecificConfig = encoder.audioSpecificConfig
        self.logger = logger
        self.deliver = deliver
        self.leadInLimitNanoseconds = leadInLimitNanoseconds
        self.state = Lock(
            State(
                encoder: encoder, blocks: AudioBlockBuffer(format: settings.format, blockFrames: encoder.frameSize),
                clock: AACPacketClock(
                    sampleRate: settings.format.sampleRate, origin: streamOrigin, startMilliseconds: streamStartMilliseconds),
                leadInOrigin: leadInLimitNanoseconds > 0 ? streamOrigin : nil))
        logger.info(
            "audio encoder opened",
            metadata: ["codec": "aac-lc", "format": "\(settings.format)", "kbps": "\(settings.bitrateKbps)"])
    }

    /// Checks that a session with `settings` would open (the settings, then libavcodec opening
    /// the encoder) and keeps nothing: the fail-fast check before the run's own session opens,
    /// which alone says in the log that the encoder opened.
    public static func check(_ settings: AACEncoderSettings) throws(AACEncoderError) {
        let problems = settings.problems()
        guard problems.isEmpty else { throw .invalidSettings(problems) }
        _ = try LibavAACEncoder(format: settings.format, bitrateKbps: settings.bitrateKbps)
    }

    /// Buffers `frame` and encodes every whole 1024-sample block; the packets they complete are
    /// delivered before this returns. Throws `.formatMismatch` for a frame in another format.
    public func encode(_ frame: AudioFrame) throws(AACEncoderError) {
        guard frame.format == settings.format else { throw .formatMismatch(expected: settings.format, got: frame.format) }
        try producer.withLock { (_) throws(AACEncoderError) in
            let (packets, next) = try state.withLock { (state) throws(AACEncoderError) -> ([MediaPacket], Int64?) in
                guard let encoder = state.encoder else { throw .closed }
                if let origin = state.leadInOrigin {
                    state.leadInOrigin = nil
                    leadIn(before: frame, origin: origin, into: &state.blocks)
                }
                state.blocks.append(frame)
                var packets: [MediaPacket] = []
                while let block = state.blocks.nextBlock() {
                    try encodeBlock(block, with: encoder, into: &packets, state: &state)
                }
                let next = state.lastPacketPTS.flatMap {
                    state.clock.predictedStreamTime(ofPTS: $0 + Int64(state.blocks.blockFrames))
                }
                return (packets, next)
            }
            if !packets.isEmpty || next != nil { deliver(packets, next) }
        }
    }

    /// Encodes what is buffered (a last, shorter AAC frame) and drains the encoder, delivering
    /// every packet; the session is closed afterwards.
    public func flush() throws(AACEncoderError) {
        try producer.withLock { (_) throws(AACEncoderError) in
            let packets = try state.withLock { (state) throws(AACEncoderError) -> [MediaPacket] in
                guard let encoder = state.encoder else { throw .closed }
                defer { state.encoder = nil }
                var packets: [MediaPacket] = []
                if let block = state.blocks.remainder() {
                    try encodeBlock(block, with: encoder, into: &packets, state: &state)
                }
                for encoded in try encoder.drain() {
                    if let packet = makePacket(encoded, state: &state) { packets.append(packet) }
                }
                return packets
            }
            if !packets.isEmpty { deliver(packets, nil) }
        }
        logger.info("audio encoder flushed and closed")
    }

    /// Releases the encoder without draining it. Idempotent; `encode` throws `.closed` afterwards.
    public func close() {
        let wasOpen = state.withLock { state in
            defer { state.encoder = nil }
            return state.encoder != nil
        }
        if wasOpen { logger.info("audio encoder closed") }
    }

    public var isClosed: Bool { state.withLock { $0.encoder == nil } }

    /// Packets handed to the output so far.
    public var deliveredPackets: Int { state.withLock { $0.deliveredPackets } }

    /// Silence from `origin` to the first frame, or a word in the log when it starts too late for
    /// that (`AudioLeadIn`).
    private func leadIn(before first: AudioFrame, origin: MonotonicTime, into blocks: inout AudioBlockBuffer) {
        let late = first.timestamp.nanoseconds(since: origin) / 1_000_000
        if let silence = AudioLeadIn.silence(before: first, origin: origin, limitNanoseconds: leadInLimitNanoseconds) {
            blocks.append(silence)
            logger.debug("audio leads in with silence", metadata: ["milliseconds": "\(late)"])
        } else if late > 0 {
            logger.notice(
                "audio starts after the picture: its device delivered its first sample too late to lead in with silence",
                metadata: ["milliseconds": "\(late)", "limitMilliseconds": "\(leadInLimitNanoseconds / 1_000_000)"])
        }
    }

    private func encodeBlock(
        _ block: AudioBlockBuffer.Block, with encoder: LibavAACEncoder, into packets: inout [MediaPacket], state: inout State
    ) throws(AACEncoderError) {
        let pts = state.nextPTS
        state.clock.record(blockPTS: pts, time: block.timestamp)
        state.nextPTS += Int64(block.frameCount)
        for encoded in try encoder.encode(block.samples, frames: block.frameCount, pts: pts) {
            if let packet = makePacket(encoded, state: &state) { packets.append(packet) }
        }
    }

    private func makePacket(_ encoded: LibavAACEncoder.Packet, state: inout State) -> MediaPacket? {
        state.lastPacketPTS = encoded.pts
        let capture = state.clock.captureNanoseconds(ofPTS: encoded.pts)
        guard let dts = state.clock.streamTime(ofCaptureNanoseconds: capture) else {
            state.packetsBeforeOrigin += 1
            return nil
        }
        state.deliveredPackets += 1
        return MediaPacket(
            codec: .aac, decoderConfiguration: DecoderConfiguration(parameterSets: [audioSpecificConfig]), isKeyframe: true,
            dts: dts, pts: dts, captureTime: capture / 1_000_000, units: [encoded.bytes])
    }
}
