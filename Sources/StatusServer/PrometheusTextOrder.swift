/// The text format's families in a stable order: sorted by name, and the series within a family
/// sorted too, so that two scrapes compare with `diff` (as node_exporter's do).
///
/// swift-prometheus keeps families, and a family's series, in dictionaries: it writes them in a
/// different order from one registry to the next. A family is its `# HELP` and `# TYPE` lines
/// followed by its samples; each sample line stays whole (name, labels, value), so the
/// exposition is unchanged but for its order.
enum PrometheusTextOrder {
    static func sorted(_ text: String) -> String {
        var families: [(name: String, comments: [Substring], samples: [Substring])] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("#") {
                // "# HELP name …" or "# TYPE name …": a new family unless the last one has that name.
                let words = line.split(separator: " ", maxSplits: 3)
                let name = words.count > 2 ? String(words[2]) : ""
                if families.last.map({ $0.name != name || !$0.samples.isEmpty }) ?? true {
                    families.append((name, [], []))
                }
                families[families.count - 1].comments.append(line)
            } else {
                if families.isEmpty { families.append(("", [], [])) }
                families[families.count - 1].samples.append(line)
            }
        }
        let ordered = families.sorted { $0.name < $1.name }
        var lines: [Substring] = []
        for family in ordered {
            lines += family.comments
            lines += family.samples.sorted()
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }
}
