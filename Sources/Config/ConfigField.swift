/// One scalar key of the schema (`encoder.bitrate_kbps`): what it accepts and how its text is
/// stored into a `CamcastConfig`.
///
/// Fields work on text, not on YAML nodes, so the file, command-line flags and environment
/// variables all go through the same rules (`CamcastConfig+Overrides.swift`).
struct ConfigField {
    /// The key inside its section, as written in the file: `bitrate_kbps`.
    let key: String
    /// What the key accepts, for messages: "an integer 50…100000".
    let expected: String
    /// The value used when the key is left out, for messages.
    let defaultText: String
    /// Stores the value `text` spells into the config; returns why it cannot instead.
    let store: (String, inout CamcastConfig) -> String?
}

extension ConfigField {
    static func integer(_ key: String, _ path: WritableKeyPath<CamcastConfig, Int>, _ range: ClosedRange<Int>) -> ConfigField {
        ConfigField(key: key, expected: "an integer \(ValueText.range(range))",
                    defaultText: String(CamcastConfig.default[keyPath: path])) { text, config in
            switch integer(text, in: range) {
            case .value(let value): config[keyPath: path] = value; return nil
            case .problem(let message): return message
            }
        }
    }

    /// A key with no default: leaving it out leaves the value nil.
    static func optionalInteger(_ key: String, _ path: WritableKeyPath<CamcastConfig, Int?>, _ range: ClosedRange<Int>) -> ConfigField {
        ConfigField(key: key, expected: "an integer \(ValueText.range(range))", defaultText: "none") { text, config in
            switch integer(text, in: range) {
            case .value(let value): config[keyPath: path] = value; return nil
            case .problem(let message): return message
            }
        }
    }

    static func number(_ key: String, _ path: WritableKeyPath<CamcastConfig, Double>, _ range: ClosedRange<Double>) -> ConfigField {
        ConfigField(key: key, expected: "a number \(ValueText.range(range))",
                    defaultText: ValueText.number(CamcastConfig.default[keyPath: path])) { text, config in
            switch number(text, in: range) {
            case .value(let value): config[keyPath: path] = value; return nil
            case .problem(let message): return message
            }
        }
    }

    /// Only `true` or `false`: YAML 1.1's yes/no/on/off are too easy to write by accident.
    static func flag(_ key: String, _ path: WritableKeyPath<CamcastConfig, Bool>) -> ConfigField {
        ConfigField(key: key, expected: "true or false",
                    defaultText: String(CamcastConfig.default[keyPath: path])) { text, config in
            switch text.lowercased() {
            case "true": config[keyPath: path] = true; return nil
            case "false": config[keyPath: path] = false; return nil
            default: return "\(ValueText.quoted(text)) is not true or false"
            }
        }
    }

    static func choice<Choice: RawRepresentable & CaseIterable>(
        _ key: String, _ path: WritableKeyPath<CamcastConfig, Choice>
    ) -> ConfigField where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue)
        return ConfigField(key: key, expected: "one of \(ValueText.list(names))",
                           defaultText: CamcastConfig.default[keyPath: path].rawValue) { text, config in
            switch oneOf(names, text) {
            case .value(let name): config[keyPath: path] = Choice(rawValue: name)!; return nil
            case .problem(let message): return message
            }
        }
    }

    /// A parse result that carries the problem message rather than an `Error`.
    enum Parsed<Value> {
        case value(Value)
        case problem(String)
    }

    static func integer(_ text: String, in range: ClosedRange<Int>) -> Parsed<Int> {
        guard let value = Int(text) else {
            return .problem("\(ValueText.quoted(text)) is not an integer (allowed: \(ValueText.range(range)))")
        }
        guard range.contains(value) else {
            return .problem("\(value) is out of range (\(ValueText.range(range)))")
        }
        return .value(value)
    }

    static func number(_ text: String, in range: ClosedRange<Double>) -> Parsed<Double> {
        guard let value = decimal(text) else {
            return .problem("\(ValueText.quoted(text)) is not a number (allowed: \(ValueText.range(range)))")
        }
        guard range.contains(value) else {
            return .problem("\(text) is out of range (\(ValueText.range(range)))")
        }
        return .value(value)
    }

    /// A finite decimal number as written in YAML (`2`, `1.5`, `.5`, `1e3`); not `nan`, `inf` or
    /// hex floats, which `Double(_:)` would accept.
    static func decimal(_ text: String) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
            let value = Double(text), value.isFinite
        else { return nil }
        return value
    }

    /// Matches `text` case-insensitively against `names`; the problem suggests the closest name.
    static func oneOf(_ names: [String], _ text: String) -> Parsed<String> {
        if let name = names.first(where: { $0.lowercased() == text.lowercased() }) { return .value(name) }
        var message = "\(ValueText.quoted(text)) is not one of \(ValueText.list(names))"
        if let guess = KeySuggestion.closest(to: text, among: names) { message += "; did you mean `\(guess)`?" }
        return .problem(message)
    }
}
