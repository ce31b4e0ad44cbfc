internal import CAVCodec

/// One libavcodec option for an `avcodec:NAME` encoder (`encoder.options`), by libavcodec's name:
/// an AVCodecContext option (`g`, `bf`) or one of the encoder's own (`preset`, `tune`,
/// `num_capture_buffers`, `x264-params`), passed to avcodec_open2 as ffmpeg passes `-preset p4`.
/// They are applied after Camcast's own settings, so they win over them.
public struct EncoderOption: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension EncoderSettings {
    /// The settings the libraries linked in take instead of `encoder.options`.
    static func librarySettingKeys(_ codec: VideoCodec) -> String {
        codec == .h264
            ? "preset, realtime, profile, level, bframes, entropy, threads, max_frame_delay, keyframe_interval_seconds"
            : "preset, realtime, threads, max_frame_delay, keyframe_interval_seconds"
    }

    /// What is wrong with `codecOptions`: any at all with a linked-in library (x264, x265), an
    /// option the libavcodec encoder does not have, or a value it does not take. Asked of
    /// libavcodec's option tables and a context that is never opened, so no device is touched and
    /// `check-config` refuses what `run` would.
    func avcodecOptionProblems(prefix: String) -> [EncoderSettingsProblem] {
        guard !codecOptions.isEmpty else { return [] }
        guard case .avcodec(let name) = implementation else {
            return [EncoderSettingsProblem(
                setting: "\(prefix).options", value: codecOptions.map(\.name).joined(separator: ", "),
                allowed: "options are for an avcodec:NAME backend; \(codec.library) takes \(Self.librarySettingKeys(codec)) in encoder:")]
        }
        var problems: [EncoderSettingsProblem] = []
        for option in codecOptions {
            let setting = "\(prefix).options.\(option.name)"
            let has = name.withCString { encoder in option.name.withCString { cavcodec_encoder_has_option(encoder, $0) } }
            guard has != 0 else {
                problems.append(EncoderSettingsProblem(
                    setting: setting, value: option.name,
                    allowed: "avcodec:\(name) has no such option; `ffmpeg -h encoder=\(name)` lists its own, `ffmpeg -h full` the common ones"))
                continue
            }
            let (status, _) = LibavLog.capturing {
                name.withCString { encoder in option.name.withCString { key in option.value.withCString { cavcodec_encoder_option_check(encoder, key, $0) } } }
            }
            if status < 0 {
                problems.append(EncoderSettingsProblem(
                    setting: setting, value: option.value,
                    allowed: "a value avcodec:\(name)'s \(option.name) takes; `ffmpeg -h encoder=\(name)` lists them"))
            }
        }
        return problems
    }

    /// Every option name libavcodec encoder `name` has, for a "did you mean".
    public static func avcodecOptionNames(encoder name: String) -> [String] {
        var names: [String] = []
        var previous: UnsafePointer<AVOption>?
        var own: Int32 = 0
        while let option = name.withCString({ cavcodec_next_encoder_option($0, &previous, &own) }) {
            names.append(String(cString: option))
        }
        return names
    }
}
