/// Walks the YAML node tree (`YAMLComposer`), which keeps each value's line and column — the
/// reason Codable is not used: a decoding error there cannot say where the bad value is.
extension ConfigDecoder {
    /// Plain `key:`, `key: ~` and `key: null` mean "no value"; a quoted "null" is a string.
    private static let nullSpellings: Set<String> = ["", "~", "null", "Null", "NULL"]

    mutating func decode(document root: YAMLNode?) {
        guard let root else {
            report("outputs", at: nil, "is required, and the file is empty; \(Self.outputsHint)")
            return
        }
        guard case .mapping(let mapping) = root else {
            if Self.isNull(root) {
                report("outputs", at: location(of: root), "is required; \(Self.outputsHint)")
            } else {
                report("", at: location(of: root),
                       "expected a map of sections (`source:`, `encoder:`, `outputs:` …), got \(describe(root))")
            }
            return
        }
        for (keyNode, value) in mapping {
            let key = keyNode.scalar?.string ?? describe(keyNode)
            if key == "outputs" {
                decodeOutputs(value)
            } else if key == "overlay" {
                decodeOverlay(value)
            } else if decodeScheduleKey(key, value) {
                continue
            } else if let section = CamcastConfig.schema.first(where: { $0.section == key }) {
                decodeSection(key, fields: section.fields, value)
            } else {
                reportUnknownKey(key, in: nil, candidates: CamcastConfig.topLevelKeys, at: location(of: keyNode))
            }
        }
        // No `outputs:` key is fine here: CAMCAST_OUTPUTS (the unit's EnvironmentFile, where the
        // stream key belongs) or --output may give them. A run without any output is refused
        // where every source of outputs has been applied (SettingsResolver's start checks).
    }

    static let outputsHint = "add at least one output, such as `- url: rtmp://host/app/key` or `- path: /var/lib/camcast/cam.flv`"

    private mutating func decodeSection(_ name: String, fields: [ConfigField], _ node: YAMLNode) {
        given[name] = location(of: node)
        // A section whose keys are all commented out is empty, not wrong.
        if Self.isNull(node) { return }
        guard case .mapping(let mapping) = node else {
            report(name, at: location(of: node),
                   "expected a map of settings (`key: value` lines indented under `\(name):`), got \(describe(node))")
            return
        }
        for (keyNode, value) in mapping {
            let key = keyNode.scalar?.string ?? describe(keyNode)
            let keyPath = "\(name).\(key)"
            if name == "encoder", key == Self.encoderOptionsKey {
                decodeEncoderOptions(value)
                continue
            }
            guard let field = fields.first(where: { $0.key == key }) else {
                let maps = name == "encoder" ? [Self.encoderOptionsKey] : []
                reportUnknownKey(key, in: name, candidates: fields.map(\.key) + maps, at: location(of: keyNode))
                continue
            }
            guard case .scalar(let scalar) = value else {
                given[keyPath] = location(of: value)
                report(keyPath, at: location(of: value), "expected \(field.expected), got \(describe(value))")
                continue
            }
            set(field, keyPath: keyPath, text: Self.isNull(value) ? nil : scalar.string, at: location(of: value))
        }
    }

    /// A scalar's text, or nil after reporting a list, a map or no value where one value belongs.
    mutating func scalarText(_ node: YAMLNode, keyPath: String, expected: String) -> String? {
        guard case .scalar(let scalar) = node else {
            report(keyPath, at: location(of: node), "expected \(expected), got \(describe(node))")
            return nil
        }
        guard !Self.isNull(node) else {
            report(keyPath, at: location(of: node), "has no value (expected \(expected); leave the key out for the default)")
            return nil
        }
        return scalar.string
    }

    func location(of node: YAMLNode) -> SourceLocation {
        SourceLocation(origin: origin, line: node.mark?.line, column: node.mark?.column)
    }

    static func isNull(_ node: YAMLNode) -> Bool {
        guard case .scalar(let scalar) = node else { return false }
        return scalar.style == .plain && nullSpellings.contains(scalar.string)
    }

    /// A node for a message: its text for a scalar (redacted if it looks like a URL), else its kind.
    func describe(_ node: YAMLNode) -> String {
        switch node {
        case .scalar(let scalar): Self.isNull(node) ? "no value" : ValueText.quoted(scalar.string)
        case .mapping: "a map"
        case .sequence: "a list"
        }
    }
}
