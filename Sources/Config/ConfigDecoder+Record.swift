/// `outputs: - record: DIR` and the keys beside it: `segment_seconds`, `segment_name`, `max_age_seconds`,
/// `max_bytes`, `min_free_bytes` (sizes as bytes or with a unit: `500M`, `2GiB`), `container` (mp4, ts).
extension ConfigDecoder {
    static let recordKeys = [
        "record", "segment_seconds", "segment_name", "max_age_seconds", "max_bytes", "min_free_bytes", "mode", "pre_seconds", "pre_bytes",
        "post_seconds", "container",
    ]
    static let segmentSecondsRange: ClosedRange<Double> = 1...86_400

    mutating func recordOutput(index: Int, _ spec: OutputSpec) -> CamcastConfig.OutputConfig? {
        let itemPath = "outputs[\(index)]"
        guard let record = spec.record else { return nil }
        guard let directory = record.text, !directory.isEmpty else {
            report("\(itemPath).record", at: record.at, "has no value (expected the folder to record into, e.g. /var/lib/camcast/recordings)")
            return nil
        }
        var config = CamcastConfig.RecordConfig(directory: directory)
        var valid = true
        var outage: CamcastConfig.RecordConfig.Outage?
        var outageKeyGiven: (key: String, at: SourceLocation)?
        var pending = CamcastConfig.RecordConfig.Outage()
        var nameGiven = false
        for (key, entry) in spec.recordOptions {
            let keyPath = "\(itemPath).\(key)"
            guard let text = entry.text else {
                report(keyPath, at: entry.at, "has no value; leave the key out for the default")
                valid = false
                continue
            }
            switch key {
            case "segment_seconds":
                switch ConfigField.number(text, in: Self.segmentSecondsRange) {
                case .value(let seconds): config.segmentSeconds = seconds
                case .problem(let message): report(keyPath, at: entry.at, message); valid = false
                }
            case "segment_name":
                if let problem = Self.namePatternProblem(text) {
                    report(keyPath, at: entry.at, problem)
                    valid = false
                } else {
                    config.name = text
                    nameGiven = true
                }
            case "container":
                guard let container = CamcastConfig.RecordConfig.Container(rawValue: text.lowercased()) else {
                    report(keyPath, at: entry.at, "\(ValueText.quoted(text)) is not a container (allowed: mp4, ts)")
                    valid = false
                    continue
                }
                config.container = container
            case "mode":
                switch text {
                case "continuous": outage = nil
                case "outage": outage = outage ?? .init()
                default:
                    report(keyPath, at: entry.at, "\(ValueText.quoted(text)) is not a mode (allowed: continuous, outage)")
                    valid = false
                }
            case "pre_seconds", "post_seconds":
                outageKeyGiven = (key, entry.at)
                switch ConfigField.number(text, in: 0...3600) {
                case .value(let seconds):
                    if key == "pre_seconds" { pending.preSeconds = seconds } else { pending.postSeconds = seconds }
                case .problem(let message): report(keyPath, at: entry.at, message); valid = false
                }
            case "pre_bytes":
                outageKeyGiven = (key, entry.at)
                guard let bytes = Self.byteCount(text) else {
                    report(keyPath, at: entry.at, "\(ValueText.quoted(text)) is not a size (write bytes, or a number with K, M, G, e.g. 64M)")
                    valid = false
                    continue
                }
                pending.preBytes = bytes
            case "max_age_seconds":
                switch ConfigField.integer(text, in: 1...Int(Int32.max)) {
                case .value(let seconds): config.maxAgeSeconds = seconds
                case .problem(let message): report(keyPath, at: entry.at, message); valid = false
                }
            default:
                guard let bytes = Self.byteCount(text) else {
                    report(keyPath, at: entry.at, "\(ValueText.quoted(text)) is not a size (write bytes, or a number with K, M, G or T, e.g. 500M or 2GiB)")
                    valid = false
                    continue
                }
                if key == "max_bytes" { config.maxBytes = bytes } else { config.minFreeBytes = bytes }
            }
        }
        if config.container == .ts && !nameGiven { config.name = CamcastConfig.RecordConfig.defaultTSName }
        if outage != nil {
            config.outage = pending
        } else if let given = outageKeyGiven {
            report("\(itemPath).\(given.key)", at: given.at, "only applies with `mode: outage`")
            valid = false
        }
        return valid ? .record(config) : nil
    }

    /// A name pattern must stay inside the folder and end in a file name.
    static func namePatternProblem(_ pattern: String) -> String? {
        if pattern.hasPrefix("/") { return "\(ValueText.quoted(pattern)) must be relative to the `record` folder" }
        if pattern.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." || $0.isEmpty }) {
            return "\(ValueText.quoted(pattern)) must not contain `..` or an empty folder name"
        }
        if pattern.hasSuffix("/") { return "\(ValueText.quoted(pattern)) must end in a file name, e.g. %H-%M-%S%z.mp4" }
        if !pattern.contains("%") { return "\(ValueText.quoted(pattern)) names every segment the same; use strftime fields such as %Y-%m-%d/%H-%M-%S%z.mp4" }
        return nil
    }

    /// `1048576`, `500M`, `500MB`, `2G`, `2GiB`, `1.5T`: units of 1024 (what `df -h` shows).
    static func byteCount(_ text: String) -> Int64? {
        let trimmed = String(text.filter { $0 != " " }).uppercased()
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        var unit = Substring(trimmed.dropFirst(digits.count))
        if unit.hasSuffix("IB") { unit = unit.dropLast(2) } else if unit.hasSuffix("B") { unit = unit.dropLast() }
        let shifts: [String: Int64] = ["": 0, "K": 10, "M": 20, "G": 30, "T": 40]
        guard let shift = shifts[String(unit)], let value = Double(digits), value.isFinite, value > 0 else { return nil }
        let bytes = value * Double(Int64(1) << shift)
        guard bytes < 9e18 else { return nil }
        return Int64(bytes)
    }
}
