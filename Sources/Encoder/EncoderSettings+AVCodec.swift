internal import CAVCodec

extension EncoderSettings {
    /// What is wrong with `implementation` for this codec, if it names a libavcodec encoder: one
    /// libavcodec does not have, one that is not H.264/H.265 or not this codec, or one that takes
    /// hardware frames only (VA-API). Asked of libavcodec itself, so `check-config` and `run`
    /// refuse exactly the names the open would fail on for want of such an encoder.
    func avcodecProblem(prefix: String) -> EncoderSettingsProblem? {
        guard case .avcodec(let name) = implementation else { return nil }
        func problem(_ allowed: String) -> EncoderSettingsProblem {
            EncoderSettingsProblem(setting: "\(prefix).backend", value: EncoderImplementation.avcodecPrefix + name, allowed: allowed)
        }
        let offered = Self.avcodecEncoderNames(for: codec)
        let offer = offered.isEmpty
            ? "this libavcodec has no \(codec.displayName) encoder"
            : "libavcodec's \(codec.displayName) encoders here: \(offered.map { EncoderImplementation.avcodecPrefix + $0 }.joined(separator: ", "))"
        // VA-API encoders take frames in GPU surfaces only; feeding them means a hardware frames
        // context and an upload, which this backend does not do: refused by name, not half run.
        if name.hasSuffix("_vaapi") {
            return problem("VA-API encoders need hardware frames, which Camcast does not make; \(offer)")
        }
        let info = name.withCString { cavcodec_encoder_lookup($0) }
        guard info.found != 0 else {
            return problem("libavcodec has no encoder of that name; \(offer)")
        }
        guard let encodes = VideoCodec(avcodecKind: info.codec) else {
            return problem("it is not an H.264 or H.265 encoder; \(offer)")
        }
        guard encodes == codec else {
            return problem("it encodes \(encodes.displayName) but encoder.codec is \(codec.rawValue); set codec: \(encodes.rawValue) or pick one of \(offer)")
        }
        guard info.takes_i420 != 0 || info.takes_nv12 != 0 else {
            return problem("it takes no yuv420p or nv12 software frames (hardware frames only); \(offer)")
        }
        return nil
    }

    /// The encoder that runs, for logs, the summary and onMetaData: "libx264", "libx265" or
    /// "avcodec:h264_v4l2m2m".
    public var encoderName: String {
        switch implementation {
        case .library: codec.library
        case .avcodec: implementation.description
        }
    }

    /// Whether `EncoderSession.reconfigure(bitrateKbps:)` can change the rate while the encoder
    /// runs: x264 and x265 can, and of libavcodec's encoders those that read it per frame.
    public var changesBitrateLive: Bool {
        switch implementation {
        case .library: true
        case .avcodec(let name): AVCodecEncoder.liveBitrateEncoders.contains(name)
        }
    }

    /// The names of libavcodec's encoders for `codec` that take I420 or NV12 software frames, in
    /// libavcodec's order (VA-API left out).
    public static func avcodecEncoderNames(for codec: VideoCodec) -> [String] {
        var names: [String] = []
        var iterator: UnsafeMutableRawPointer?
        var kind: Int32 = 0
        while let name = cavcodec_next_video_encoder(&iterator, &kind) {
            let text = String(cString: name)
            guard VideoCodec(avcodecKind: kind) == codec, !text.hasSuffix("_vaapi") else { continue }
            // libx264rgb and the like take no 4:2:0 software frames.
            let info = cavcodec_encoder_lookup(name)
            if info.takes_i420 != 0 || info.takes_nv12 != 0 { names.append(text) }
        }
        return names
    }
}

extension VideoCodec {
    /// The codec of a `CAVCODEC_H264`/`CAVCODEC_HEVC` kind from the shim; nil for any other.
    init?(avcodecKind kind: Int32) {
        switch kind {
        case Int32(CAVCODEC_H264): self = .h264
        case Int32(CAVCODEC_HEVC): self = .h265
        default: return nil
        }
    }

    /// "H.264" or "H.265", as users write it.
    var displayName: String { self == .h264 ? "H.264" : "H.265" }
}
