import Media

extension OverlayColour {
    /// The names `overlay:` accepts for a colour, besides #RRGGBB.
    static let names: [(String, OverlayColour)] = [
        ("white", .white), ("black", .black), ("grey", OverlayColour(red: 128, green: 128, blue: 128)),
        ("gray", OverlayColour(red: 128, green: 128, blue: 128)), ("red", OverlayColour(red: 255, green: 0, blue: 0)),
        ("green", OverlayColour(red: 0, green: 255, blue: 0)), ("blue", OverlayColour(red: 0, green: 0, blue: 255)),
        ("yellow", OverlayColour(red: 255, green: 255, blue: 0)), ("cyan", OverlayColour(red: 0, green: 255, blue: 255)),
        ("magenta", OverlayColour(red: 255, green: 0, blue: 255)),
    ]

    /// A colour name (white, black, grey, red, green, blue, yellow, cyan, magenta) or #RRGGBB (the
    /// # may be left out, spaces and case do not matter); nil for anything else.
    init?(parsing text: String) {
        let trimmed = String(text.filter { !$0.isWhitespace }).lowercased()
        if let named = Self.names.first(where: { $0.0 == trimmed }) {
            self = named.1
            return
        }
        let hex = trimmed.hasPrefix("#") ? String(trimmed.dropFirst()) : trimmed
        guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }
}
