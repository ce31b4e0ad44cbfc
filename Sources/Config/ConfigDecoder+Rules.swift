/// Rules across keys: values that are each fine but do not fit together. Each problem points at
/// the key that was given (so its line is known), falling back to the other key in the rule.
extension ConfigDecoder {
    mutating func checkCombinations() {
        checkSource()
        checkEncoder()
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

    /// Where the first of `keyPaths` that was given was written.
    func place(_ keyPaths: String...) -> SourceLocation? {
        keyPaths.lazy.compactMap { given[$0] }.first
    }
}
