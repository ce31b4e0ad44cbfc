import RTMPAddress

/// `outputs:` — a list of maps, each with exactly one of `url` (RTMP) or `path` (a file).
extension ConfigDecoder {
    /// One output's keys as text with where each was written, from YAML or from the command line.
    struct OutputSpec {
        var url: (text: String?, at: SourceLocation)?
        var path: (text: String?, at: SourceLocation)?
        var maxFrames: (text: String?, at: SourceLocation)?
        /// `record: DIR` and its options (ConfigDecoder+Record.swift).
        var record: (text: String?, at: SourceLocation)?
        var recordOptions: [(key: String, entry: (text: String?, at: SourceLocation))] = []
        /// `latency_ms`, `passphrase_file`, `pbkeylen`, `streamid` of an `srt://` output (ConfigDecoder+SRT.swift).
        var srtOptions: [(key: String, entry: (text: String?, at: SourceLocation))] = []
        /// `interface` or `source_address` of a network output (ConfigDecoder+Uplink.swift).
        var uplinkOptions: [(key: String, entry: (text: String?, at: SourceLocation))] = []
        /// `name:` — how metrics, /status and the status line call the output.
        var name: (text: String?, at: SourceLocation)?
        /// `urls:` (a list), `mode`, `failover_after_seconds`, `return_after_seconds` (ConfigDecoder+Group.swift).
        var urls: (items: [LegSpec], at: SourceLocation)?
        var groupOptions: [(key: String, entry: (text: String?, at: SourceLocation))] = []
        /// `schedule:` — the output's own (ConfigDecoder+Schedule.swift); nil when not given or wrong.
        var schedule: ScheduleSpec?
        var at: SourceLocation?
        /// An unknown key was reported (`uri:`); "needs url or path" would only repeat it.
        var hadUnknownKey = false
    }

    static let outputKeys = ["url", "path", "max_frames", "name", "urls", "schedule"] + recordKeys + srtKeys + groupKeys + uplinkKeys
    static let recordingExtensions = [".flv", ".h264", ".h265"]

    mutating func decodeOutputs(_ node: YAMLNode) {
        let at = location(of: node)
        given["outputs"] = at
        switch node {
        case .sequence(let items):
            guard !items.isEmpty else {
                report("outputs", at: at, "is an empty list; \(Self.outputsHint)")
                return
            }
            // Items already reported as malformed stay nil; the rest are still checked.
            setOutputs(items.enumerated().map { outputSpec(index: $0.offset, $0.element) })
        case .mapping:
            report("outputs", at: at, "expected a list; start each output with `- `, as in `- url: rtmp://host/app/key`")
        default:
            if Self.isNull(node) {
                report("outputs", at: at, "has no value; \(Self.outputsHint)")
            } else {
                report("outputs", at: at, "expected a list of outputs, got \(describe(node)); write `- url: …` or `- path: …` on the next line")
            }
        }
    }

    private mutating func outputSpec(index: Int, _ item: YAMLNode) -> OutputSpec? {
        let itemPath = "outputs[\(index)]"
        guard case .mapping(let mapping) = item else {
            report(itemPath, at: location(of: item),
                   "expected a map with `url:` (RTMP) or `path:` (a file), got \(describe(item))")
            return nil
        }
        var spec = OutputSpec(at: location(of: item))
        for (keyNode, value) in mapping {
            let key = keyNode.scalar?.string ?? describe(keyNode)
            guard Self.outputKeys.contains(key) else {
                reportUnknownKey(key, in: itemPath, candidates: Self.outputKeys, at: location(of: keyNode))
                spec.hadUnknownKey = true
                continue
            }
            let at = location(of: value)
            if key == "urls" {
                guard let urls = urlList(value, itemPath: itemPath) else { return nil }
                spec.urls = (urls, at)
                continue
            }
            if key == "schedule" {
                spec.schedule = scheduleSpec(value, keyPath: "\(itemPath).schedule")
                continue
            }
            guard case .scalar(let scalar) = value else {
                report("\(itemPath).\(key)", at: at, "expected a single value, got \(describe(value))")
                return nil
            }
            let entry = (text: Self.isNull(value) ? nil : scalar.string, at: at)
            switch key {
            case "url": spec.url = entry
            case "path": spec.path = entry
            case "max_frames": spec.maxFrames = entry
            case "name": spec.name = entry
            case "record": spec.record = entry
            case _ where Self.srtKeys.contains(key): spec.srtOptions.append((key, entry))
            case _ where Self.groupKeys.contains(key): spec.groupOptions.append((key, entry))
            case _ where Self.uplinkKeys.contains(key): spec.uplinkOptions.append((key, entry))
            default: spec.recordOptions.append((key, entry))
            }
        }
        return spec
    }

    /// Checks each output and the list as a whole, then replaces `config.outputs`.
    /// A nil spec is an item already reported as malformed; it keeps its index for the others.
    mutating func setOutputs(_ specs: [OutputSpec?]) {
        var outputs: [CamcastConfig.OutputConfig] = []
        var firstIndex: [CamcastConfig.OutputConfig: Int] = [:]
        var names: [CamcastConfig.OutputConfig: String] = [:]
        config.outputUplinks = [:]
        for (index, spec) in specs.enumerated() {
            guard let spec, let output = output(index: index, spec) else { continue }
            if let earlier = firstIndex[output] {
                let key = switch output {
                case .rtmp: "url"
                case .file: "path"
                case .record: "record"
                case .srt: "url"
                case .group: "urls"
                }
                report("outputs[\(index)].\(key)", at: spec.url?.at ?? spec.path?.at ?? spec.record?.at ?? spec.urls?.at,
                       "\(ValueText.quoted(outputText(output))) is the same output as outputs[\(earlier)]")
                continue
            }
            firstIndex[output] = index
            outputs.append(output)
            if let name = spec.name { setName(name, of: output, index: index, names: &names) }
            if let schedule = spec.schedule { pendingSchedules.outputs.append((output, "outputs[\(index)].schedule", schedule)) }
            setUplink(spec.uplinkOptions, of: output, index: index)
        }
        config.outputs = outputs
        config.outputNames = names
    }

    /// A name is a label value and part of URLs people type: short, lower case, unique.
    private mutating func setName(
        _ name: (text: String?, at: SourceLocation), of output: CamcastConfig.OutputConfig, index: Int,
        names: inout [CamcastConfig.OutputConfig: String]
    ) {
        let keyPath = "outputs[\(index)].name"
        guard let text = name.text, !text.isEmpty else {
            report(keyPath, at: name.at, "has no value (expected a short name such as studio-youtube; leave the key out for rtmp-1, flv-1, …)")
            return
        }
        let allowed = text.count <= 32 && text.first.map { $0.isASCII && ($0.isLowercase || $0.isNumber) } == true
            && text.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_") }
        guard allowed else {
            report(keyPath, at: name.at, "\(ValueText.quoted(text)) is not a name (expected up to 32 of a-z, 0-9, - and _, starting with a letter or digit)")
            return
        }
        guard !names.values.contains(text) else {
            report(keyPath, at: name.at, "\(ValueText.quoted(text)) names another output already; each name must be unique")
            return
        }
        names[output] = text
    }

    private func outputText(_ output: CamcastConfig.OutputConfig) -> String {
        switch output {
        case .rtmp(let url): url
        case .file(let path, _): path
        case .record(let record): record.directory
        case .srt(let srt): srt.url.description
        case .group(let group): group.description
        }
    }

    private mutating func output(index: Int, _ spec: OutputSpec) -> CamcastConfig.OutputConfig? {
        let itemPath = "outputs[\(index)]"
        var spec = spec
        // `mode` is a recording's too (outage mode): with `record:` it is the recording's.
        if spec.record != nil {
            spec.recordOptions += spec.groupOptions.filter { Self.recordKeys.contains($0.key) }
            spec.groupOptions.removeAll { Self.recordKeys.contains($0.key) }
        }
        if let urls = spec.urls {
            guard spec.url == nil, spec.path == nil, spec.record == nil, spec.maxFrames == nil else {
                report(itemPath, at: spec.at, "has `urls` beside `url`, `path`, `record` or `max_frames`; a group of legs is an output of its own")
                return nil
            }
            return groupOutput(index: index, urls: urls, spec: spec)
        }
        if let option = spec.groupOptions.first {
            let also = Self.recordKeys.contains(option.key) ? " or to a `record:` output" : ""
            report("\(itemPath).\(option.key)", at: option.entry.at, "only applies to an output with `urls:` (a primary and its backups)\(also)")
            return nil
        }
        if spec.record != nil {
            guard spec.url == nil, spec.path == nil, spec.maxFrames == nil else {
                report(itemPath, at: spec.at, "has `record` beside `url`, `path` or `max_frames`; a recording is an output of its own")
                return nil
            }
            return recordOutput(index: index, spec)
        }
        if let option = spec.recordOptions.first {
            report("\(itemPath).\(option.key)", at: option.entry.at, "only applies to a `record:` output")
            return nil
        }
        if let url = spec.url, let text = url.text, text.lowercased().hasPrefix("srt://") {
            guard spec.path == nil, spec.maxFrames == nil else {
                report(itemPath, at: spec.at, "has `path` or `max_frames` beside an srt:// `url`; an SRT output is an output of its own")
                return nil
            }
            return srtOutput(index: index, url: (text, url.at), options: spec.srtOptions)
        }
        if let option = spec.srtOptions.first {
            report("\(itemPath).\(option.key)", at: option.entry.at, "only applies to an srt:// output (`url: srt://host:port`)")
            return nil
        }
        switch (spec.url, spec.path) {
        case (nil, nil):
            if spec.hadUnknownKey { return nil }
            report(itemPath, at: spec.at, "needs `url: rtmp://host/app/key` (RTMP) or `path: …/cam.flv` (a file)")
            return nil
        case (.some, .some):
            report(itemPath, at: spec.at, "has both `url` and `path`; an output is either an RTMP URL or a file, so split it into two outputs")
            return nil
        case (let url?, nil):
            guard let text = url.text else {
                report("\(itemPath).url", at: url.at, "has no value (expected \(RTMPURL.expectedForm))")
                return nil
            }
            // The publisher's own parser, so what passes here is what librtmp will be given.
            var parsed: RTMPURL?
            do {
                parsed = try RTMPURL(parsing: text)
            } catch {
                report("\(itemPath).url", at: url.at, error.message(quoting: text))
            }
            if let maxFrames = spec.maxFrames {
                report("\(itemPath).max_frames", at: maxFrames.at, "only applies to .h264/.h265 file outputs, not to RTMP")
                return nil
            }
            return parsed == nil ? nil : .rtmp(url: text)
        case (nil, let path?):
            guard let text = path.text, !text.isEmpty else {
                report("\(itemPath).path", at: path.at, "has no value (expected a file path ending in .flv, .h264 or .h265)")
                return nil
            }
            let lowered = text.lowercased()
            guard let fileExtension = Self.recordingExtensions.first(where: { lowered.hasSuffix($0) && lowered.count > $0.count }) else {
                report("\(itemPath).path", at: path.at, "\(ValueText.quoted(text)) must end in .flv (FLV recording), .h264 or .h265 (raw Annex-B)")
                return nil
            }
            guard let maxFrames = spec.maxFrames else { return .file(path: text, maxFrames: nil) }
            guard fileExtension != ".flv" else {
                report("\(itemPath).max_frames", at: maxFrames.at, "only applies to .h264/.h265 file outputs, not to .flv")
                return nil
            }
            guard let frames = maxFrames.text else {
                report("\(itemPath).max_frames", at: maxFrames.at, "has no value (allowed: an integer 1…1000000000; leave the key out to record until stopped)")
                return nil
            }
            switch ConfigField.integer(frames, in: 1...1_000_000_000) {
            case .value(let count): return .file(path: text, maxFrames: count)
            case .problem(let message):
                report("\(itemPath).max_frames", at: maxFrames.at, message)
                return nil
            }
        }
    }
}
