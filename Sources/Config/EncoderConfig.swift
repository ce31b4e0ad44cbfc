extension CamcastConfig {
    /// `encoder:` — the encoder session. Each value maps onto one x264 (or x265) parameter (see design.md's table).
    public struct EncoderConfig: Sendable, Equatable {
        /// `encoder.codec`: H.264 through libx264, or H.265 through libx265.
        public enum Codec: String, Sendable, CaseIterable {
            case h264, h265
        }

        /// `encoder.preset`: x264's speed/quality trade-off, fastest first.
        public enum Preset: String, Sendable, CaseIterable {
            case ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, placebo
        }

        /// `encoder.profile`: the H.264 profile passed to `x264_param_apply_profile`.
        public enum Profile: String, Sendable, CaseIterable {
            case baseline, main, high
        }

        /// `encoder.entropy`: CAVLC or CABAC (`b_cabac`); auto lets the profile decide.
        public enum Entropy: String, Sendable, CaseIterable {
            case auto, cavlc, cabac
        }

        /// `encoder.scaling`: how a frame whose aspect ratio differs from the encode size's is
        /// fitted into it (a 4:3-only camera encoded at 16:9). Spelled as the encoder's
        /// `ScalingMode`, which the daemon maps it onto.
        public enum Scaling: String, Sendable, CaseIterable {
            case fit, fill, stretch
        }

        public var codec: Codec = .h264
        /// `encoder.backend`: `auto` (the codec's library: libx264 or libx265, linked in) or
        /// `avcodec:NAME`, a libavcodec encoder such as `avcodec:h264_v4l2m2m` (the hardware
        /// encoder of a Raspberry Pi) or `avcodec:libx264`. Whether libavcodec has NAME, and for
        /// this codec, is checked where the encoder settings are (`EncoderSettings.validate`).
        public var backend: String = "auto"
        /// `encoder.bitrate_kbps`: average bitrate (x264 ABR, `rc.i_bitrate`).
        public var bitrateKbps: Int = 2500
        /// `encoder.adaptive_bitrate`: the bitrate follows what the slowest RTMP output carries,
        /// between `min_bitrate_kbps` and `bitrate_kbps` (the ceiling).
        public var adaptiveBitrate: Bool = true
        /// `encoder.min_bitrate_kbps`: the floor of adaptive bitrate; nil = a quarter of
        /// `bitrate_kbps` (at least 50). Below it the send queue drops up to the next keyframe.
        public var minBitrateKbps: Int?
        /// `encoder.max_rate_factor`: VBV max rate as a multiple of the average (seeds use 1.5).
        public var maxRateFactor: Double = 1.5
        /// `encoder.rate_window_seconds`: the VBV buffer, in seconds at the max rate.
        public var rateWindowSeconds: Double = 1.0
        /// `encoder.keyframe_interval_seconds`: the longest GOP in seconds (ingest services want 2).
        public var keyframeIntervalSeconds: Double = 2
        /// `encoder.keyframe_interval_frames`: the longest GOP in frames; when both are set the
        /// smaller interval wins.
        public var keyframeIntervalFrames: Int?
        public var preset: Preset = .veryfast
        /// `encoder.realtime`: x264 `tune=zerolatency` (no lookahead, no frame delay, no B-frames).
        public var realtime: Bool = true
        public var profile: Profile = .high
        /// `encoder.level`: "auto" or an H.264 level written "3.1", "4", "5.2".
        public var level: String = "auto"
        /// `encoder.bframes`: consecutive B-frames (`i_bframe`).
        public var bframes: Int = 0
        public var entropy: Entropy = .auto
        /// `encoder.threads`: x264 worker threads; 0 lets x264 choose.
        public var threads: Int = 0
        /// `encoder.max_frame_delay`: frames the encoder may hold back (lookahead); nil = x264's choice.
        public var maxFrameDelay: Int?
        /// `encoder.scaling`: fit letterboxes, so nothing is cut off or distorted unless asked for.
        public var scaling: Scaling = .fit
        /// `encoder.options`: libavcodec option name → value for an `avcodec:NAME` backend, as
        /// ffmpeg's `-preset p4 -tune ll` give them, in file order. Whether the encoder has each
        /// option is checked where the encoder settings are (libavcodec is asked).
        public var options: [Option] = []

        /// One `encoder.options` entry.
        public struct Option: Sendable, Equatable {
            public var name: String
            public var value: String

            public init(name: String, value: String) {
                self.name = name
                self.value = value
            }
        }

        public init() {}

        /// The floor adaptive bitrate uses: `min_bitrate_kbps`, or a quarter of the bitrate.
        public var effectiveMinBitrateKbps: Int {
            minBitrateKbps ?? min(bitrateKbps, max(50, bitrateKbps / 4))
        }

        /// The H.264 levels `encoder.level` accepts, as written in the spec's Table A-1.
        public static let levels = ["1", "1.1", "1.2", "1.3", "2", "2.1", "2.2", "3", "3.1", "3.2",
                                    "4", "4.1", "4.2", "5", "5.1", "5.2"]

        /// `level_idc` for x264's `i_level_idc` (level × 10: "3.1" → 31); nil for "auto".
        public var levelIDC: Int? {
            guard level != "auto", let value = Double(level) else { return nil }
            return Int((value * 10).rounded())
        }
    }
}
