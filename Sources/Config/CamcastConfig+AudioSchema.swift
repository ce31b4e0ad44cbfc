extension CamcastConfig {
    /// The `audio:` keys (the section is last in the file, after `status:`).
    static var audioFields: [ConfigField] {
        [
            .choice("source", \.audio.source),
            ConfigField(key: "device", expected: "an ALSA device name such as default, hw:1,0 or plughw:CARD=Mic,DEV=0",
                        defaultText: "none") { text, config in
                guard !text.isEmpty, !text.contains(where: { $0.isWhitespace }) else {
                    return "\(ValueText.quoted(text)) is not an ALSA device name (for example default, hw:1,0 or plughw:CARD=Mic,DEV=0)"
                }
                config.audio.device = text
                return nil
            },
            ConfigField(key: "file", expected: "a PCM 16-bit .wav file", defaultText: "none") { text, config in
                guard !text.isEmpty else { return "is empty (expected the path of a PCM 16-bit .wav file)" }
                config.audio.file = text
                return nil
            },
            ConfigField(key: "sample_rate", expected: "one of \(ValueText.list(AudioConfig.sampleRates.map(String.init)))",
                        defaultText: String(CamcastConfig.default.audio.sampleRate)) { text, config in
                guard let rate = Int(text), AudioConfig.sampleRates.contains(rate) else {
                    return "\(ValueText.quoted(text)) is not an AAC sample rate (allowed: \(ValueText.list(AudioConfig.sampleRates.map(String.init))))"
                }
                config.audio.sampleRate = rate
                return nil
            },
            .integer("channels", \.audio.channels, 1...2),
            .integer("bitrate_kbps", \.audio.bitrateKbps, 16...512),
        ]
    }
}

extension ConfigDecoder {
    /// The key each audio source needs, and the keys it must not have (as for `source:`).
    mutating func checkAudio() {
        let audio = config.audio
        let kind = audio.source.rawValue
        if audio.source == .device, audio.device == nil, given["audio.device"] == nil {
            report("audio.device", at: place("audio.source"), "is required when audio.source is device (for example default or hw:1,0)")
        }
        if audio.source == .file, audio.file == nil, given["audio.file"] == nil {
            report("audio.file", at: place("audio.source"), "is required when audio.source is file (a PCM 16-bit .wav file)")
        }
        if audio.source != .device, audio.device != nil {
            report("audio.device", at: place("audio.device", "audio.source"), "is set but audio.source is \(kind); remove it or set source: device")
        }
        if audio.source != .file, audio.file != nil {
            report("audio.file", at: place("audio.file", "audio.source"), "is set but audio.source is \(kind); remove it or set source: file")
        }
    }
}
