import RTMPAddress

/// An output with `urls:` — a primary and its backups (issue 43) — and its keys `mode`,
/// `failover_after_seconds`, `return_after_seconds`. Each leg is an RTMP, RTMPS or SRT URL,
/// checked as a single `url:` is; SRT keys apply to the SRT legs.
extension ConfigDecoder {
    static let groupKeys = ["mode", "failover_after_seconds", "return_after_seconds"]
    /// Legs in one group: a primary and its backups. More would only multiply the uplink's load.
    static let groupLegs = 2...8

    /// `urls:` as a list of texts; nil (reported) if it is not a list of single values.
    mutating func urlList(_ node: YAMLNode, itemPath: String) -> [(text: String?, at: SourceLocation)]? {
        guard case .sequence(let items) = node else {
            report("\(itemPath).urls", at: location(of: node), "expected a list of URLs, the primary first (`urls: [rtmp://a/live/key, rtmp://b/live/key]`), got \(describe(node))")
            return nil
        }
        var urls: [(text: String?, at: SourceLocation)] = []
        for (position, item) in items.enumerated() {
            guard case .scalar(let scalar) = item else {
                report("\(itemPath).urls[\(position)]", at: location(of: item), "expected a URL, got \(describe(item))")
                return nil
            }
            urls.append((Self.isNull(item) ? nil : scalar.string, location(of: item)))
        }
        return urls
    }

    mutating func groupOutput(
        index: Int, urls: (items: [(text: String?, at: SourceLocation)], at: SourceLocation), spec: OutputSpec
    ) -> CamcastConfig.OutputConfig? {
        let itemPath = "outputs[\(index)]"
        guard Self.groupLegs.contains(urls.items.count) else {
            report("\(itemPath).urls", at: urls.at,
                   "has \(urls.items.count) URL\(urls.items.count == 1 ? "" : "s"); a group needs \(Self.groupLegs.lowerBound) to \(Self.groupLegs.upperBound) (the primary first), or use `url:` for one")
            return nil
        }
        var legs: [CamcastConfig.OutputConfig] = []
        var valid = true
        for (position, url) in urls.items.enumerated() {
            let keyPath = "\(itemPath).urls[\(position)]"
            guard let text = url.text, !text.isEmpty else {
                report(keyPath, at: url.at, "has no value (expected \(RTMPURL.expectedForm) or srt://host:port)")
                valid = false
                continue
            }
            let leg: CamcastConfig.OutputConfig?
            if text.lowercased().hasPrefix("srt://") {
                leg = srtOutput(index: index, url: (text, url.at), options: spec.srtOptions, urlKey: "urls[\(position)]")
            } else {
                do {
                    _ = try RTMPURL(parsing: text)
                    leg = .rtmp(url: text)
                } catch {
                    report(keyPath, at: url.at, error.message(quoting: text))
                    leg = nil
                }
            }
            guard let leg else {
                valid = false
                continue
            }
            if let earlier = legs.firstIndex(of: leg) {
                report(keyPath, at: url.at, "\(ValueText.quoted(leg.description)) is the same leg as urls[\(earlier)]")
                valid = false
                continue
            }
            legs.append(leg)
        }
        if let option = spec.srtOptions.first, !legs.contains(where: { if case .srt = $0 { true } else { false } }) {
            report("\(itemPath).\(option.key)", at: option.entry.at, "only applies to srt:// URLs, and `urls` has none")
            valid = false
        }
        guard let mode = groupMode(spec, itemPath: itemPath, at: urls.at) else { return nil }
        var group = CamcastConfig.OutputGroupConfig(legs: legs, mode: mode)
        for (key, entry) in spec.groupOptions where key != "mode" {
            let keyPath = "\(itemPath).\(key)"
            guard mode == .failover else {
                report(keyPath, at: entry.at, "only applies with `mode: failover` (with `mode: both` every leg streams all the time)")
                valid = false
                continue
            }
            let range = key == "failover_after_seconds" ? 1...3600 : 1...86400
            guard let text = entry.text, !text.isEmpty else {
                report(keyPath, at: entry.at, "has no value (expected an integer \(ValueText.range(range)) of seconds); leave the key out for the default")
                valid = false
                continue
            }
            switch ConfigField.integer(text, in: range) {
            case .value(let seconds):
                if key == "failover_after_seconds" { group.failoverAfterSeconds = seconds } else { group.returnAfterSeconds = seconds }
            case .problem(let message):
                report(keyPath, at: entry.at, message)
                valid = false
            }
        }
        return valid ? .group(group) : nil
    }

    private mutating func groupMode(_ spec: OutputSpec, itemPath: String, at: SourceLocation) -> CamcastConfig.OutputGroupConfig.Mode? {
        let choices = "`mode: failover` (the first URL that works carries the stream) or `mode: both` (every URL carries it, as YouTube's primary and backup ingest want)"
        guard let entry = spec.groupOptions.first(where: { $0.key == "mode" })?.entry else {
            report(itemPath, at: at, "has `urls` but no `mode`; add \(choices)")
            return nil
        }
        guard let text = entry.text, let mode = CamcastConfig.OutputGroupConfig.Mode(rawValue: text) else {
            report("\(itemPath).mode", at: entry.at, "\(entry.text.map(ValueText.quoted) ?? "no value") is not a mode; write \(choices)")
            return nil
        }
        return mode
    }
}
