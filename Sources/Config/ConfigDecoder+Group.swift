import RTMPAddress

/// An output with `urls:` — a primary and its backups (issue 43) — and its keys `mode`,
/// `failover_after_seconds`, `return_after_seconds`. Each leg is an RTMP, RTMPS or SRT URL,
/// checked as a single `url:` is; SRT keys apply to the SRT legs.
extension ConfigDecoder {
    static let groupKeys = ["mode", "failover_after_seconds", "return_after_seconds"]
    /// Legs in one group: a primary and its backups. More would only multiply the uplink's load.
    static let groupLegs = 2...8

    /// One leg of `urls:`: its URL, and the interface or source address it leaves by, if any.
    struct LegSpec {
        var text: String?
        var at: SourceLocation
        var uplinkOptions: [(key: String, entry: (text: String?, at: SourceLocation))] = []
    }

    /// `urls:` as a list of legs, each a URL or a map `{url: …, interface: …}`; nil (reported) if
    /// it is not such a list.
    mutating func urlList(_ node: YAMLNode, itemPath: String) -> [LegSpec]? {
        guard case .sequence(let items) = node else {
            report("\(itemPath).urls", at: location(of: node), "expected a list of URLs, the primary first (`urls: [rtmp://a/live/key, rtmp://b/live/key]`), got \(describe(node))")
            return nil
        }
        var legs: [LegSpec] = []
        for (position, item) in items.enumerated() {
            let legPath = "\(itemPath).urls[\(position)]"
            switch item {
            case .scalar(let scalar):
                legs.append(LegSpec(text: Self.isNull(item) ? nil : scalar.string, at: location(of: item)))
            case .mapping(let mapping):
                var leg = LegSpec(text: nil, at: location(of: item))
                var hasURL = false
                for (keyNode, value) in mapping {
                    let key = keyNode.scalar?.string ?? describe(keyNode)
                    guard key == "url" || Self.uplinkKeys.contains(key) else {
                        reportUnknownKey(key, in: legPath, candidates: ["url"] + Self.uplinkKeys, at: location(of: keyNode))
                        return nil
                    }
                    guard case .scalar(let scalar) = value else {
                        report("\(legPath).\(key)", at: location(of: value), "expected a single value, got \(describe(value))")
                        return nil
                    }
                    let text = Self.isNull(value) ? nil : scalar.string
                    if key == "url" {
                        (leg.text, leg.at, hasURL) = (text, location(of: value), true)
                    } else {
                        leg.uplinkOptions.append((key, (text, location(of: value))))
                    }
                }
                guard hasURL else {
                    report(legPath, at: leg.at, "needs `url:` (a leg with its own uplink is `{url: rtmp://…, interface: wwan0}`)")
                    return nil
                }
                legs.append(leg)
            case .sequence:
                report(legPath, at: location(of: item), "expected a URL or a map with `url:`, got \(describe(item))")
                return nil
            }
        }
        return legs
    }

    mutating func groupOutput(
        index: Int, urls: (items: [LegSpec], at: SourceLocation), spec: OutputSpec
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
            setUplink(url.uplinkOptions, of: leg, index: index, itemPath: keyPath)
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
