extension FrameRate {
    /// Reads `30`, `"30000/1001"` or a decimal such as `12.5` (kept exact: 25/2).
    /// Nil for anything that is not a positive fraction of integers, or whose integers do not fit
    /// (never a trap: a config value or a flag reaches here unchecked). Whether the rate is one
    /// Camcast can run at is `rangeProblem`'s call.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let numerator = Int(parts[0].trimmingSpaces), let denominator = Int(parts[1].trimmingSpaces),
                denominator > 0
            else { return nil }
            self.init(numerator: numerator, denominator: denominator)
            return
        }
        guard parts.count == 1 else { return nil }
        if let whole = Int(text) {
            self.init(numerator: whole, denominator: 1)
            return
        }
        // A decimal: scale by a power of ten so the fraction is exact, then reduce it.
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count == 2, !pieces[1].isEmpty, pieces[1].count <= 6,
            pieces[1].allSatisfy({ $0.isASCII && $0.isNumber }),
            let whole = Int(pieces[0].isEmpty ? "0" : String(pieces[0])), whole >= 0,
            let fraction = Int(pieces[1])
        else { return nil }
        var denominator = 1
        for _ in 0..<pieces[1].count { denominator *= 10 }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: denominator)
        guard !overflow, case let (numerator, false) = scaled.addingReportingOverflow(fraction) else { return nil }
        self.init(numerator: numerator, denominator: denominator)
        self = reduced
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
