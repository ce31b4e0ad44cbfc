import Media

/// Turns one `overlay.items[N]` map's values into an item, with a problem for each bad value.
struct OverlayItemParser {
    typealias Item = CamcastConfig.OverlayConfig.Item

    let itemPath: String
    let values: [String: (text: String, at: SourceLocation)]
    private(set) var problems: [(keyPath: String, at: SourceLocation, message: String)] = []

    init(itemPath: String, values: [String: (text: String, at: SourceLocation)]) {
        self.itemPath = itemPath
        self.values = values
    }

    mutating func item(text: String) -> Item {
        var item = Item(text: text)
        if text.isEmpty, let at = values["text"]?.at {
            problems.append(("\(itemPath).text", at, "is empty (expected the text to show)"))
        }
        if let (value, at) = values["position"] {
            if let position = OverlayPosition(rawValue: value.lowercased()) {
                item.position = position
            } else {
                let allowed = OverlayPosition.allCases.map(\.rawValue)
                problems.append(("\(itemPath).position", at, "\(ValueText.quoted(value)) is not a position (allowed: \(ValueText.list(allowed)))"))
            }
        }
        item.margin = integer("margin", 0...4000) ?? item.margin
        item.height = integer("height", 8...1000) ?? item.height
        item.colour = colour("colour") ?? item.colour
        item.contrast = contrast() ?? item.contrast
        return item
    }

    private mutating func integer(_ key: String, _ range: ClosedRange<Int>) -> Int? {
        guard let (value, at) = values[key] else { return nil }
        guard let number = Int(value) else {
            problems.append(("\(itemPath).\(key)", at, "\(ValueText.quoted(value)) is not a whole number of pixels (\(range.lowerBound)…\(range.upperBound))"))
            return nil
        }
        guard range.contains(number) else {
            problems.append(("\(itemPath).\(key)", at, "\(number) is out of range (\(range.lowerBound)…\(range.upperBound) pixels)"))
            return nil
        }
        return number
    }

    private mutating func colour(_ key: String) -> OverlayColour? {
        guard let (value, at) = values[key] else { return nil }
        guard let colour = OverlayColour(parsing: value) else {
            let names = OverlayColour.names.map(\.0)
            problems.append(("\(itemPath).\(key)", at, "\(ValueText.quoted(value)) is not a colour (expected #RRGGBB or one of \(ValueText.list(names)))"))
            return nil
        }
        return colour
    }

    /// `outline: COLOUR` (or none), or `box: COLOUR` with `box_alpha`, never both.
    private mutating func contrast() -> OverlayContrast? {
        let outline = values["outline"]
        let box = values["box"]
        if let outline, box != nil {
            problems.append(("\(itemPath).outline", outline.at, "is set together with box; give one of outline or box"))
            return nil
        }
        var alpha = 0.5
        if let (value, at) = values["box_alpha"] {
            if box == nil {
                problems.append(("\(itemPath).box_alpha", at, "is set but box is not; add `box: black` (or another colour) or remove box_alpha"))
            } else if let number = Double(value), (0...1).contains(number) {
                alpha = number
            } else {
                problems.append(("\(itemPath).box_alpha", at, "\(ValueText.quoted(value)) is not an opacity from 0 (transparent) to 1 (opaque)"))
            }
        }
        if let outline {
            if outline.text.lowercased() == "none" { return OverlayContrast.none }
            return colour("outline").map { .outline($0) }
        }
        if box != nil {
            return colour("box").map { .box($0, alpha: alpha) }
        }
        return nil
    }
}
