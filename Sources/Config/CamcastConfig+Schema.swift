/// The schema: every section and scalar key the file may hold, with its range and default.
/// `Config/camcast.yaml` documents the same keys; `ConfigTests` checks the two agree.
/// `outputs` is a list of maps and is decoded separately (`ConfigDecoder+Outputs.swift`).
extension CamcastConfig {
    static var schema: [(section: String, fields: [ConfigField])] {
        [
            ("source", [
                .choice("type", \.source.type),
                ConfigField(key: "device", expected: "a V4L2 device path starting with /dev/", defaultText: "none") { text, config in
                    guard text.hasPrefix("/dev/"), text.count > 5 else {
                        return "\(ValueText.quoted(text)) is not a device path (expected /dev/videoN or another path under /dev/)"
                    }
                    config.source.device = text
                    return nil
                },
                ConfigField(key: "file", expected: "a .y4m clip, an .mjpeg recording, a raw frame file (with pixel_format), or - for standard input", defaultText: "none") { text, config in
                    guard !text.isEmpty else { return "is empty (expected a path, or - for standard input)" }
                    config.source.file = text
                    return nil
                },
                .flag("loop", \.source.loop),
                ConfigField(key: "pixel_format", expected: "auto or one of \(ValueText.list(SourceConfig.pixelFormats))",
                            defaultText: "auto") { text, config in
                    switch ConfigField.oneOf(["auto"] + SourceConfig.pixelFormats, text) {
                    case .value(let name): config.source.pixelFormat = name; return nil
                    case .problem(let message): return message
                    }
                },
                ConfigField(key: "size", expected: "WIDTHxHEIGHT, both even, \(SourceConfig.Size.supportedRangeText)",
                            defaultText: CamcastConfig.default.source.size.description) { text, config in
                    guard let size = SourceConfig.Size(parsing: text) else {
                        return "\(ValueText.quoted(text)) is not a size (expected WIDTHxHEIGHT such as 1280x720)"
                    }
                    guard size.isWithinSupportedRange else {
                        return "\(size) is out of range (\(SourceConfig.Size.supportedRangeText))"
                    }
                    guard size.isEven else {
                        return "\(size) has an odd width or height; 4:2:0 video needs both even"
                    }
                    config.source.size = size
                    return nil
                },
                ConfigField(key: "fps", expected: "a number or a fraction such as \"30000/1001\", from 0.01 to 240",
                            defaultText: CamcastConfig.default.source.fps.description) { text, config in
                    guard let rate = SourceConfig.FrameRate(parsing: text) else {
                        if ConfigField.decimal(text) != nil {
                            return "\(ValueText.quoted(text)) is out of range (from 0.01 to 240)"
                        }
                        return "\(ValueText.quoted(text)) is not a frame rate (expected a number such as 30 or a fraction such as \"30000/1001\")"
                    }
                    if let problem = rate.rangeProblem {
                        return "\(text) is out of range (\(problem))"
                    }
                    config.source.fps = rate
                    return nil
                },
                .integer("buffers", \.source.buffers, 2...32),
            ]),
            ("encoder", [
                .choice("codec", \.encoder.codec),
                ConfigField(key: "backend", expected: "auto, x264, x265 or avcodec:NAME (a libavcodec encoder, e.g. avcodec:h264_v4l2m2m)",
                            defaultText: "auto") { text, config in
                    let lowered = text.lowercased()
                    if ["auto", "x264", "x265"].contains(lowered) {
                        config.encoder.backend = lowered
                        return nil
                    }
                    guard text.hasPrefix("avcodec:"), text.count > "avcodec:".count, !text.contains(where: \.isWhitespace) else {
                        return "\(ValueText.quoted(text)) is not an encoder backend (allowed: auto, x264, x265, or avcodec:NAME with a libavcodec encoder name such as avcodec:h264_v4l2m2m; `ffmpeg -encoders` lists them)"
                    }
                    config.encoder.backend = text
                    return nil
                },
                .integer("bitrate_kbps", \.encoder.bitrateKbps, 50...100_000),
                .flag("adaptive_bitrate", \.encoder.adaptiveBitrate),
                .optionalInteger("min_bitrate_kbps", \.encoder.minBitrateKbps, 50...100_000),
                .number("max_rate_factor", \.encoder.maxRateFactor, 1.0...4.0),
                .number("rate_window_seconds", \.encoder.rateWindowSeconds, 0.1...10),
                .number("keyframe_interval_seconds", \.encoder.keyframeIntervalSeconds, 0.1...60),
                .optionalInteger("keyframe_interval_frames", \.encoder.keyframeIntervalFrames, 1...10_000),
                .choice("preset", \.encoder.preset),
                .flag("realtime", \.encoder.realtime),
                .choice("profile", \.encoder.profile),
                ConfigField(key: "level", expected: "auto or an H.264 level (\(EncoderConfig.levels.joined(separator: ", ")))",
                            defaultText: "auto") { text, config in
                    if text.lowercased() == "auto" {
                        config.encoder.level = "auto"
                        return nil
                    }
                    // "4", "4.0" and 4.0 all name level 4.
                    guard let value = ConfigField.decimal(text),
                        let level = EncoderConfig.levels.first(where: { Double($0) == value })
                    else {
                        return "\(ValueText.quoted(text)) is not an H.264 level (allowed: auto, \(EncoderConfig.levels.joined(separator: ", ")))"
                    }
                    config.encoder.level = level
                    return nil
                },
                .integer("bframes", \.encoder.bframes, 0...16),
                .choice("entropy", \.encoder.entropy),
                .integer("threads", \.encoder.threads, 0...64),
                .optionalInteger("max_frame_delay", \.encoder.maxFrameDelay, 0...250),
                .choice("scaling", \.encoder.scaling),
            ]),
            ("reconnect", [
                .number("initial_delay_seconds", \.reconnect.initialDelaySeconds, 0.1...60),
                .number("factor", \.reconnect.factor, 1.0...10),
                .number("max_delay_seconds", \.reconnect.maxDelaySeconds, 0.1...3600),
                .integer("max_attempts", \.reconnect.maxAttempts, 0...1_000_000),
                .number("healthy_after_seconds", \.reconnect.healthyAfterSeconds, 0...86_400),
            ]),
            ("network", [
                .number("connect_timeout_seconds", \.network.connectTimeoutSeconds, 1...120),
                .number("send_timeout_seconds", \.network.sendTimeoutSeconds, 1...120),
                ConfigField(key: "tls_ca_file", expected: "an absolute path to a PEM file of CA certificates",
                            defaultText: "none") { text, config in
                    // Read at connect time (RTMP TLSSession), where a missing or bad file is a clear error.
                    guard text.hasPrefix("/"), text.count > 1 else {
                        return "\(ValueText.quoted(text)) is not an absolute path (expected a PEM file such as /etc/camcast/ca.pem)"
                    }
                    config.network.tlsCAFile = text
                    return nil
                },
            ]),
            ("queue", [
                .number("max_seconds", \.queue.maxSeconds, 0.2...30),
            ]),
            ("logging", [
                .choice("level", \.logging.level),
            ]),
            ("status", [
                .number("interval_seconds", \.status.intervalSeconds, 1...3600),
            ]),
            ("audio", audioFields),
            ("http", [
                ConfigField(key: "listen", expected: "HOST:PORT (loopback unless credentials_file is set), or empty to turn it off",
                            defaultText: CamcastConfig.default.http.listen) { text, config in
                    guard !text.isEmpty else {
                        config.http.listen = ""
                        return nil
                    }
                    var probe = HTTPConfig()
                    probe.listen = text
                    guard let address = probe.address, !address.host.isEmpty, (0...65535).contains(address.port) else {
                        return "\(ValueText.quoted(text)) is not HOST:PORT (expected e.g. 127.0.0.1:9935, or empty to turn the endpoint off)"
                    }
                    config.http.listen = text
                    return nil
                },
                ConfigField(key: "credentials_file", expected: "an absolute path to a file of user:password lines (mode 0600)",
                            defaultText: "none") { text, config in
                    guard text.hasPrefix("/"), text.count > 1 else {
                        return "\(ValueText.quoted(text)) is not an absolute path (expected e.g. /etc/camcast/http-credentials)"
                    }
                    config.http.credentialsFile = text
                    return nil
                },
            ]),
        ]
    }

    /// Top-level keys: the sections plus `outputs`.
    static var topLevelKeys: [String] {
        let sections = schema.map(\.section)
        return Array(sections.prefix(2)) + ["outputs"] + sections.dropFirst(2) + ["overlay"] + ConfigDecoder.scheduleTopLevelKeys
    }

    /// Every scalar key path that `apply(overrides:)` accepts, in file order
    /// (`source.type` … `status.interval_seconds`).
    public static var overridableKeyPaths: [String] {
        schema.flatMap { section in section.fields.map { "\(section.section).\($0.key)" } }
    }

    /// The field at a key path such as `encoder.bitrate_kbps`.
    static func field(at keyPath: String) -> ConfigField? {
        let parts = keyPath.split(separator: ".", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        return schema.first { $0.section == parts[0] }?.fields.first { $0.key == parts[1] }
    }
}
