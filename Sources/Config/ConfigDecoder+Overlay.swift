#if canImport(Glibc)
import Glibc
#endif
import Media

/// `overlay:` — a map with `font`, `clock_unset_text` and `items`, a list of maps (one per text).
extension ConfigDecoder {
    static let overlayKeys = ["items", "font", "clock_unset_text", "slate_text", "slate_image"]
    static let overlayItemKeys = ["text", "position", "margin", "height", "colour", "outline", "box", "box_alpha"]

    mutating func decodeOverlay(_ node: YAMLNode) {
        let at = location(of: node)
        given["overlay"] = at
        if Self.isNull(node) { return }
        guard case .mapping(let mapping) = node else {
            report("overlay", at: at, "expected a map with `items:` (and optionally `font:`, `clock_unset_text:`), got \(describe(node))")
            return
        }
        for (keyNode, value) in mapping {
            let key = keyNode.scalar?.string ?? describe(keyNode)
            let keyPath = "overlay.\(key)"
            switch key {
            case "items":
                decodeOverlayItems(value)
            case "font", "clock_unset_text", "slate_text", "slate_image":
                let isPath = key == "font" || key == "slate_image"
                guard let text = scalarText(value, keyPath: keyPath, expected: isPath ? "a file's path" : "text") else { continue }
                given[keyPath] = location(of: value)
                switch key {
                case "font":
                    if let problem = Self.fontProblem(text) { report(keyPath, at: location(of: value), problem) } else { config.overlay.font = text }
                case "slate_image":
                    if let problem = Self.fileProblem(text, example: "/etc/camcast/offline.jpg") {
                        report(keyPath, at: location(of: value), problem)
                    } else {
                        config.overlay.slateImage = text
                    }
                case "slate_text":
                    config.overlay.slateText = text
                default:
                    config.overlay.clockUnsetText = text
                }
            default:
                reportUnknownKey(key, in: "overlay", candidates: Self.overlayKeys, at: location(of: keyNode))
            }
        }
    }

    /// Why `path` cannot be the font, as far as a path tells (FreeType checks the file itself when
    /// the daemon starts: a file that is not a font is a configuration error there).
    static func fontProblem(_ path: String) -> String? {
        if let problem = fileProblem(path, example: OverlayDefaults.fontPath) {
            return access(path, F_OK) == 0 || !path.hasPrefix("/") ? problem : problem + " (install fonts-dejavu-core for the default font)"
        }
        return nil
    }

    /// Why `path` cannot be read as a file, or nil.
    static func fileProblem(_ path: String, example: String) -> String? {
        guard path.hasPrefix("/") else {
            return "\(ValueText.quoted(path)) is not an absolute path (expected a file such as \(example))"
        }
        guard access(path, F_OK) == 0 else { return "\(path): no such file" }
        guard access(path, R_OK) == 0 else { return "\(path): cannot be read (check its permissions)" }
        return nil
    }

    /// A scalar's text; reports a missing value or a list/map in its place.
    private mutating func decodeOverlayItems(_ node: YAMLNode) {
        guard case .sequence(let nodes) = node else {
            report("overlay.items", at: location(of: node),
                   "expected a list of texts; start each with `- text: …`, as in `- text: \"%Y-%m-%d %H:%M:%S\"`")
            return
        }
        config.overlay.items = nodes.enumerated().compactMap { overlayItem(index: $0.offset, $0.element) }
    }

    private mutating func overlayItem(index: Int, _ node: YAMLNode) -> CamcastConfig.OverlayConfig.Item? {
        let itemPath = "overlay.items[\(index)]"
        guard case .mapping(let mapping) = node else {
            report(itemPath, at: location(of: node), "expected a map with `text:`, got \(describe(node))")
            return nil
        }
        var values: [String: (text: String, at: SourceLocation)] = [:]
        var valid = true
        for (keyNode, value) in mapping {
            let key = keyNode.scalar?.string ?? describe(keyNode)
            guard Self.overlayItemKeys.contains(key) else {
                reportUnknownKey(key, in: itemPath, candidates: Self.overlayItemKeys, at: location(of: keyNode))
                valid = false
                continue
            }
            guard let text = scalarText(value, keyPath: "\(itemPath).\(key)", expected: "a single value") else {
                valid = false
                continue
            }
            values[key] = (text, location(of: value))
        }
        guard let text = values["text"] else {
            if valid { report("\(itemPath).text", at: location(of: node), "is required (the text to show, strftime fields such as %H:%M:%S allowed)") }
            return nil
        }
        var parser = OverlayItemParser(itemPath: itemPath, values: values)
        let item = parser.item(text: text.text)
        for problem in parser.problems { report(problem.keyPath, at: problem.at, problem.message) }
        return valid && parser.problems.isEmpty ? item : nil
    }
}
