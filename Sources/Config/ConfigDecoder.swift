/// Builds a `CamcastConfig` from values one key at a time, collecting a problem for every bad
/// value instead of stopping at the first (design invariant 7).
///
/// The YAML walk (`ConfigDecoder+YAML.swift`), the outputs list (`+Outputs`), the cross-key rules
/// (`+Rules`) and command-line/environment overrides all feed the same decoder, so every source of a
/// value is held to the same rules.
struct ConfigDecoder {
    /// The config so far: defaults (or the config being overridden) with every good value applied.
    var config: CamcastConfig
    private(set) var problems: [ConfigProblem] = []
    /// Where each key that was given explicitly was written; cross-key rules point there, and
    /// "is set but …" rules need to know what was given at all.
    var given: [String: SourceLocation] = [:]
    /// Names the file (or "command line") for problems that have no better location.
    let origin: String
    /// The schedules' parts as the walk finds them (ConfigDecoder+Schedule.swift).
    var pendingSchedules = PendingSchedules()

    init(origin: String, config: CamcastConfig = .default) {
        self.origin = origin
        self.config = config
    }

    mutating func report(_ keyPath: String, at location: SourceLocation?, _ message: String) {
        problems.append(ConfigProblem(
            origin: location?.origin ?? origin, keyPath: keyPath,
            line: location?.line, column: location?.column, message: message))
    }

    /// Stores one scalar value; `text` is nil when the key was written with no value (`key:`),
    /// which is a problem, not a request for the default.
    mutating func set(_ field: ConfigField, keyPath: String, text: String?, at location: SourceLocation) {
        given[keyPath] = location
        guard let text else {
            let fallback = field.defaultText == "none"
                ? "leave the key out to leave it unset"
                : "leave the key out for the default, \(field.defaultText)"
            report(keyPath, at: location, "has no value (allowed: \(field.expected); \(fallback))")
            return
        }
        if let message = field.store(text, &config) {
            report(keyPath, at: location, message)
        }
    }

    /// Reports an unknown key with the most likely intended one. A key that exists in another
    /// section (`fps` under `encoder:`) is pointed to its section.
    mutating func reportUnknownKey(_ key: String, in parent: String?, candidates: [String], at location: SourceLocation) {
        // The key itself may be a pasted URL: the key path must not carry a stream key either.
        let keyPath = parent.map { "\($0).\(ValueText.plain(key))" } ?? ValueText.plain(key)
        var message = "unknown key \(ValueText.quoted(key))"
        let elsewhere = CamcastConfig.schema.first { section in
            section.section != parent && section.fields.contains { $0.key == key }
        }
        if let elsewhere, parent == nil || CamcastConfig.schema.contains(where: { $0.section == parent }) {
            message += "; did you mean `\(elsewhere.section).\(key)`? (it belongs under `\(elsewhere.section):`)"
        } else if let guess = KeySuggestion.closest(to: key, among: candidates) {
            message += "; did you mean `\(guess)`?"
        } else {
            message += " (allowed: \(ValueText.list(candidates)))"
        }
        report(keyPath, at: location, message)
    }

    /// Problems in file order: a reader fixes them top to bottom.
    var sortedProblems: [ConfigProblem] {
        problems.enumerated().sorted { a, b in
            switch (a.element.line, b.element.line) {
            case let (left?, right?) where left != right: left < right
            case (.some, nil): true
            case (nil, .some): false
            default: a.offset < b.offset
            }
        }.map(\.element)
    }
}
