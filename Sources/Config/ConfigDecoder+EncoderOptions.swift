/// `encoder.options:` a map of libavcodec option name → value for an `avcodec:NAME` encoder, as
/// ffmpeg takes `-preset p4 -tune ll` (`preset: p4`, `tune: ll`). Here only the shape is checked:
/// names and values are scalars. Which names the encoder has, and that the backend is a libavcodec
/// one, is checked with the other encoder settings, where libavcodec can be asked.
extension ConfigDecoder {
    static let encoderOptionsKey = "options"

    mutating func decodeEncoderOptions(_ node: YAMLNode) {
        let keyPath = "encoder.\(Self.encoderOptionsKey)"
        given[keyPath] = location(of: node)
        config.encoder.options = []
        // `options:` with nothing under it (all commented out) is no options.
        if Self.isNull(node) { return }
        guard case .mapping(let mapping) = node else {
            report(keyPath, at: location(of: node),
                   "expected a map of libavcodec option names and values (e.g. `preset: p4` indented under `options:`), got \(describe(node))")
            return
        }
        var seen: Set<String> = []
        for (keyNode, value) in mapping {
            guard case .scalar(let name) = keyNode, !name.string.isEmpty else {
                report(keyPath, at: location(of: keyNode), "an option name must be a plain word such as preset, got \(describe(keyNode))")
                continue
            }
            let optionPath = "\(keyPath).\(ValueText.plain(name.string))"
            guard seen.insert(name.string).inserted else {
                report(optionPath, at: location(of: keyNode), "is given twice; keep one")
                continue
            }
            guard case .scalar(let text) = value, !Self.isNull(value) else {
                let got = Self.isNull(value) ? "no value" : describe(value)
                report(optionPath, at: location(of: value), "expected a value such as a word or a number, got \(got)")
                continue
            }
            config.encoder.options.append(.init(name: name.string, value: text.string))
        }
    }
}
