/// Rules across keys: values that are each fine but do not fit together. Each problem points at
/// the key that was given (so its line is known), falling back to the other key in the rule.
extension ConfigDecoder {
    mutating func checkCombinations() {
        makeSchedules()
        checkSource()
        checkEncoder()
        checkAdaptiveBitrate()
        checkAudio()
        let reconnect = config.reconnect
        if reconnect.maxDelaySeconds < reconnect.initialDelaySeconds {
            report("reconnect.max_delay_seconds", at: place("reconnect.max_delay_seconds", "reconnect.initial_delay_seconds"),
                   "\(ValueText.number(reconnect.maxDelaySeconds)) is less than reconnect.initial_delay_seconds (\(ValueText.number(reconnect.initialDelaySeconds)))")
        }
    }

    private mutating func checkSource() {
        let source = config.source
        let type = source.type.rawValue
        // The key each type needs (unless it was given and already reported as bad), and the keys
        // it must not have: a key that would be ignored is an error, so a mistyped type cannot
        // silently stream the test pattern.
        if source.type == .device, source.device == nil, given["source.device"] == nil {
            report("source.device", at: place("source.type"), "is required when source.type is device (for example /dev/video0)")
        }
        if source.type == .file, source.file == nil, given["source.file"] == nil {
            report("source.file", at: place("source.type"), "is required when source.type is file (a .y4m clip)")
        }
        if source.type != .device, source.device != nil {
            report("source.device", at: place("source.device", "source.type"), "is set but source.type is \(type); remove it or set type: device")
        }
        if source.type != .file, source.file != nil {
            report("source.file", at: place("source.file", "source.type"), "is set but source.type is \(type); remove it or set type: file")
        }
        if source.type == .file, let file = source.file {
            switch source.fileFormat {
            case nil:
                if let advice = SourceFileAdvice.problem(for: file) {
                    report("source.file", at: place("source.file", "source.type"), advice)
                    break
                }
                report("source.pixel_format", at: place("source.file", "source.pixel_format"),
                       "is required for \(ValueText.quoted(file)): name a .y4m or .mjpeg file, or give the raw frames' format (for example YUYV)")
            case .raw where file.lowercased().hasSuffix(".y4m"):
                report("source.pixel_format", at: place("source.pixel_format", "source.file"),
                       "is set but \(ValueText.quoted(file)) is a .y4m clip, which says its own format; remove it or use auto")
            default:
                break
            }
        }
        if source.type != .file, let at = given["source.loop"] {
            report("source.loop", at: at, "is set but source.type is \(type); it only applies to file sources")
        }
    }

    private mutating func checkEncoder() {
        let encoder = config.encoder
        checkAnnexBOutputs()
        let library = encoder.codec == .h264 ? "x264" : "x265"
        if ["x264", "x265"].contains(encoder.backend), encoder.backend != library {
            report("encoder.backend", at: place("encoder.backend", "encoder.codec"),
                   "\(encoder.backend) does not encode \(encoder.codec.rawValue); use backend: \(library) or auto, or codec: \(encoder.backend == "x264" ? "h264" : "h265")")
        }
        if encoder.codec == .h265 {
            checkH265()
            return
        }
        guard encoder.profile == .baseline else { return }
        if encoder.bframes > 0 {
            report("encoder.bframes", at: place("encoder.bframes", "encoder.profile"),
                   "\(encoder.bframes) B-frames are not allowed with profile baseline (use profile main or high, or bframes: 0)")
        }
        if encoder.entropy == .cabac {
            report("encoder.entropy", at: place("encoder.entropy", "encoder.profile"),
                   "cabac is not allowed with profile baseline, which has CAVLC only (use entropy: cavlc or auto, or profile main or high)")
        }
    }

    /// The H.264-only keys set away from their defaults with codec h265: errors, so a setting
    /// is never silently ignored. At their defaults (as the shipped camcast.yaml writes them) they
    /// pass, so switching a file to h265 needs only `codec: h265`.
    private mutating func checkH265() {
        let encoder = config.encoder
        let defaults = CamcastConfig.EncoderConfig()
        let because = "applies to H.264 only, but encoder.codec is h265"
        if encoder.profile != defaults.profile {
            let at = place("encoder.profile", "encoder.codec")
            report("encoder.profile", at: at, "\(because) (x265 encodes profile main); remove it")
        }
        if encoder.level != "auto" {
            report("encoder.level", at: place("encoder.level", "encoder.codec"), "\(because) (x265 picks the level); remove it or use auto")
        }
        if encoder.entropy != .auto {
            report("encoder.entropy", at: place("encoder.entropy", "encoder.codec"), "\(because) (H.265 has CABAC only); remove it or use auto")
        }
        if encoder.bframes > 0 {
            report("encoder.bframes", at: place("encoder.bframes", "encoder.codec"),
                   "\(encoder.bframes) B-frames, but encoder.codec is h265 and the H.265 session encodes without B-frames (use bframes: 0 or codec h264)")
        }
    }

    /// A raw Annex-B file holds one codec, and players (ffmpeg too) go by its name: an H.265
    /// stream in "cam.h264" would not play. Refused rather than renamed, so the file lands where
    /// the user said; .flv files and RTMP carry either codec.
    private mutating func checkAnnexBOutputs() {
        let codec = config.encoder.codec
        let (wanted, other) = codec == .h264 ? (".h264", ".h265") : (".h265", ".h264")
        for (index, output) in config.outputs.enumerated() {
            guard case .file(let path, _) = output, path.lowercased().hasSuffix(other) else { continue }
            report("outputs[\(index)].path", at: place("outputs", "encoder.codec"),
                   "\(ValueText.quoted(path)) names a raw \(other == ".h264" ? "H.264" : "H.265") file but encoder.codec is \(codec.rawValue); "
                   + "name it \(wanted) or set encoder.codec: \(other == ".h264" ? "h264" : "h265")")
        }
    }

    /// The floor of adaptive bitrate lies below the ceiling it adapts from.
    private mutating func checkAdaptiveBitrate() {
        let encoder = config.encoder
        guard let floor = encoder.minBitrateKbps, floor > encoder.bitrateKbps else { return }
        report("encoder.min_bitrate_kbps", at: place("encoder.min_bitrate_kbps", "encoder.bitrate_kbps"),
               "\(floor) is above encoder.bitrate_kbps (\(encoder.bitrateKbps)); the floor must not exceed the bitrate")
    }

    /// Where the first of `keyPaths` that was given was written.
    func place(_ keyPaths: String...) -> SourceLocation? {
        keyPaths.lazy.compactMap { given[$0] }.first
    }
}
