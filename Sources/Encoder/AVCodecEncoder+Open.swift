internal import CAVCodec
internal import CYUV

extension AVCodecEncoder {
    /// The settings as libavcodec's open takes them: the common AVCodecContext fields every
    /// encoder reads (size, rate, bitrate and VBV, GOP, B-frames, threads, profile, level), and
    /// x264's named options (preset, tune, profile, coder, rc-lookahead), which only encoders that
    /// have such options take (libx264 does; nvenc knows "profile" but not x264's presets).
    static func withOpenSettings<Result>(
        _ settings: EncoderSettings, nv12: Bool, _ body: (UnsafePointer<cavcodec_video_settings>) -> Result
    ) -> Result {
        let isH264 = settings.codec == .h264
        let interval = settings.keyframeIntervalInFrames
        var options = cavcodec_video_settings()
        options.width = Int32(settings.size.width)
        options.height = Int32(settings.size.height)
        options.fps_num = Int32(settings.frameRate.numerator)
        options.fps_den = Int32(settings.frameRate.denominator)
        options.nv12 = nv12 ? 1 : 0
        options.bit_rate = Int64(settings.bitrateKbps) * 1000
        options.max_rate = options.bit_rate
        options.buffer_size = Int64(settings.vbvBufferKbits(forAverage: settings.bitrateKbps)) * 1000
        // The session forces each scheduled IDR itself (pict_type I with forced-idr); the GOP is
        // the same interval, for an encoder that ignores pict_type, so both agree.
        options.gop_size = Int32(interval)
        options.keyint_min = Int32(max(1, interval / 10))
        options.max_b_frames = Int32(settings.bFrames)
        options.thread_count = Int32(settings.threads)
        options.profile = isH264 ? Int32(profileIDC(settings.profile)) : 0
        options.level = isH264 ? settings.level.flatMap(EncoderSettings.levelIDC(parsing:)) ?? 0 : 0
        options.scene_cut = settings.sceneCutKeyframes ? 1 : 0
        options.lookahead = Int32(settings.maxFrameDelay ?? -1)
        let tune = settings.zeroLatency ? "zerolatency" : nil
        let profile = isH264 ? settings.profile.rawValue : nil
        let coder = isH264 ? settings.forcedEntropy?.rawValue : nil
        return withOptionalCString(settings.preset) { preset in
            withOptionalCString(tune) { tune in
                withOptionalCString(profile) { profile in
                    withOptionalCString(coder) { coder in
                        options.preset = preset
                        options.tune = tune
                        options.profile_name = profile
                        options.coder = coder
                        return body(&options)
                    }
                }
            }
        }
    }

    /// H.264 `profile_idc`, what AVCodecContext.profile holds for H.264.
    private static func profileIDC(_ profile: H264Profile) -> Int {
        switch profile {
        case .baseline: 66
        case .main: 77
        case .high: 100
        }
    }

    private static func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }

    /// Copies `image` into `frame` in the frame's format (the encoder's), converting I420 and NV12
    /// into each other with libyuv where the two differ: the copy libavcodec needs anyway.
    func fill(_ frame: UnsafeMutablePointer<AVFrame>, from image: X264InputImage) throws(EncoderError) {
        let status = av_frame_make_writable(frame)
        guard status >= 0 else { throw .encodeFailed(status: Int(status)) }
        let width = Int32(settings.size.width), height = Int32(settings.size.height)
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        let frameIsNV12 = frame.pointee.format == AV_PIX_FMT_NV12.rawValue
        func out(_ plane: Int32) -> (UnsafeMutablePointer<UInt8>, Int32) {
            (cavcodec_frame_data(frame, plane), cavcodec_frame_linesize(frame, plane))
        }
        let p = image.planes.map { ($0.base, Int32($0.bytesPerRow)) }
        let (y, yStride) = out(0), (u, uStride) = out(1)
        var result: Int32 = 0
        switch (image.layout, frameIsNV12) {
        case (.nv12, true):
            CopyPlane(p[0].0, p[0].1, y, yStride, width, height)
            CopyPlane(p[1].0, p[1].1, u, uStride, chromaWidth * 2, chromaHeight)
        case (.i420, false):
            let (v, vStride) = out(2)
            result = I420Copy(p[0].0, p[0].1, p[1].0, p[1].1, p[2].0, p[2].1, y, yStride, u, uStride, v, vStride, width, height)
        case (.i420, true):
            result = I420ToNV12(p[0].0, p[0].1, p[1].0, p[1].1, p[2].0, p[2].1, y, yStride, u, uStride, width, height)
        case (.nv12, false):
            let (v, vStride) = out(2)
            result = NV12ToI420(p[0].0, p[0].1, p[1].0, p[1].1, y, yStride, u, uStride, v, vStride, width, height)
        }
        guard result == 0 else { throw .conversionFailed(function: "libyuv copy into the avcodec frame", status: Int(result)) }
    }
}
