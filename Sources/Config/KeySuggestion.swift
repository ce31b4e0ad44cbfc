/// "did you mean `…`?" for a mistyped key or value: the closest known name by edit distance.
public enum KeySuggestion {
    /// The candidate `word` most likely meant, or nil when none is close enough to be a typo.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let typed = normalized(word)
        guard !typed.isEmpty else { return nil }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let known = normalized(candidate)
            if known == typed { return candidate }
            let distance = editDistance(typed, known)
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        // A prefix is a likely abbreviation (`bitrate` for `bitrate_kbps`).
        if typed.count >= 4, let prefixed = candidates.first(where: { normalized($0).hasPrefix(typed) }) {
            return prefixed
        }
        guard let best, best.distance <= max(1, min(3, typed.count / 3)) else { return nil }
        return best.candidate
    }

    /// `Bitrate-KBPS` and `bitrateKbps` are the same typo of `bitrate_kbps`.
    private static func normalized(_ word: String) -> String {
        String(word.lowercased().map { $0 == "-" ? "_" : $0 })
    }

    /// Levenshtein distance (insert, delete, substitute each cost 1), one row at a time.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
