/// Command-line flags and environment variables on top of the file: flags win over the
/// environment, which wins over the file. Overrides go through the same fields and cross-key rules
/// as the file, so `--bitrate 20` fails exactly as `bitrate_kbps: 20` would.
extension CamcastConfig {
    /// Applies `overrides` keyed by key path (`"encoder.bitrate_kbps": "4000"`, `"source.size":
    /// "1920x1080"`); a non-nil `outputs` (URLs or file paths) replaces the file's whole list.
    /// An empty string means "no value" and is a problem, like `key:` in the file.
    /// On any problem the config is left unchanged and every problem is thrown.
    public mutating func apply(
        overrides: [String: String], outputs: [String]? = nil, origin: String = "command line"
    ) throws(ConfigError) {
        let values = overrides.sorted { $0.key < $1.key }.map { (keyPath: $0.key, text: $0.value, label: $0.key) }
        try apply(values, outputs: outputs, origin: origin, originPerValue: nil)
    }

    /// Applies `CAMCAST_*` variables: `CAMCAST_ENCODER_BITRATE_KBPS=4000` sets
    /// `encoder.bitrate_kbps`, and `CAMCAST_OUTPUTS` (outputs separated by spaces) replaces the
    /// outputs — a way to keep a stream key out of the config file, in a mode-600 EnvironmentFile.
    /// Other `CAMCAST_` names are problems (a typo must not be ignored) unless in `ignoring`.
    public mutating func apply(
        environment: [String: String], ignoring: Set<String> = Self.environmentVariablesNotSettings
    ) throws(ConfigError) {
        let byName = Dictionary(uniqueKeysWithValues: Self.overridableKeyPaths.map { (Self.environmentVariable(for: $0), $0) })
        var values: [(keyPath: String, text: String, label: String)] = []
        var outputs: [String]?
        var unknown: [ConfigProblem] = []
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) where name.hasPrefix("CAMCAST_") && !ignoring.contains(name) {
            if name == Self.outputsEnvironmentVariable {
                outputs = value.split(whereSeparator: \.isWhitespace).map(String.init)
            } else if let keyPath = byName[name] {
                values.append((keyPath, value, name))
            } else {
                var message = "unknown setting"
                if name.hasPrefix(Self.debugHookPrefix) {
                    message += " (a debug build's test hook; this build has none)"
                } else if let guess = KeySuggestion.closest(to: name, among: Array(byName.keys) + [Self.outputsEnvironmentVariable]) {
                    message += "; did you mean \(guess)?"
                }
                unknown.append(ConfigProblem(origin: "environment", keyPath: name, message: message))
            }
        }
        var copy = self
        do {
            try copy.apply(values, outputs: outputs, origin: "$\(Self.outputsEnvironmentVariable)", originPerValue: { "$\($0)" })
        } catch {
            throw ConfigError(problems: unknown + error.problems)
        }
        guard unknown.isEmpty else { throw ConfigError(problems: unknown) }
        self = copy
    }

    /// `encoder.bitrate_kbps` → `CAMCAST_ENCODER_BITRATE_KBPS`.
    public static func environmentVariable(for keyPath: String) -> String {
        "CAMCAST_" + String(keyPath.uppercased().map { $0 == "." ? "_" : $0 })
    }

    public static let outputsEnvironmentVariable = "CAMCAST_OUTPUTS"

    /// `CAMCAST_` variables that are not settings: the CLI reads the config file's path from this one.
    public static let environmentVariablesNotSettings: Set<String> = ["CAMCAST_CONFIG"]
    /// The prefix of a debug build's test hooks (`CAMCAST_DEBUG_CLOCK_OFFSET_FILE`, …): read only
    /// by debug builds, refused by release builds as unknown settings.
    public static let debugHookPrefix = "CAMCAST_DEBUG_"

    private mutating func apply(
        _ values: [(keyPath: String, text: String, label: String)], outputs: [String]?,
        origin: String, originPerValue: ((String) -> String)?
    ) throws(ConfigError) {
        var decoder = ConfigDecoder(origin: origin, config: self)
        for value in values {
            let at = SourceLocation(origin: originPerValue?(value.label) ?? origin)
            guard let field = Self.field(at: value.keyPath) else {
                var message = "unknown setting"
                if let guess = KeySuggestion.closest(to: value.keyPath, among: Self.overridableKeyPaths) {
                    message += "; did you mean `\(guess)`?"
                }
                decoder.report(value.keyPath, at: at, message)
                continue
            }
            decoder.set(field, keyPath: value.keyPath, text: value.text.isEmpty ? nil : value.text, at: at)
        }
        // A new source type replaces the old one: the file's device or clip no longer applies,
        // unless it was given again alongside the type.
        if decoder.given["source.type"] != nil {
            if decoder.config.source.type != .device, decoder.given["source.device"] == nil { decoder.config.source.device = nil }
            if decoder.config.source.type != .file, decoder.given["source.file"] == nil { decoder.config.source.file = nil }
        }
        // Likewise a new audio source drops the old one's device or file.
        if decoder.given["audio.source"] != nil {
            if decoder.config.audio.source != .device, decoder.given["audio.device"] == nil { decoder.config.audio.device = nil }
            if decoder.config.audio.source != .file, decoder.given["audio.file"] == nil { decoder.config.audio.file = nil }
        }
        if let outputs {
            let at = SourceLocation(origin: origin)
            decoder.given["outputs"] = at
            if outputs.isEmpty {
                decoder.report("outputs", at: at, "is empty; \(ConfigDecoder.outputsHint)")
            }
            decoder.setOutputs(outputs.map { text in
                text.contains("://")
                    ? ConfigDecoder.OutputSpec(url: (text, at), at: at)
                    : ConfigDecoder.OutputSpec(path: (text, at), at: at)
            })
        }
        decoder.checkCombinations()
        guard decoder.problems.isEmpty else { throw ConfigError(problems: decoder.problems) }
        self = decoder.config
    }
}
