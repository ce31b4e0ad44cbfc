import FoundationEssentials

/// The users HTTP Basic lets in (`http.credentials_file`: `user:password` lines, mode 0600).
/// Compared in constant time, so a wrong password's timing tells nothing of the right one.
public struct BasicCredentials: Sendable, Equatable {
    /// The accepted `user:password` pairs, as bytes.
    let accepted: [[UInt8]]

    public init(lines: String) {
        accepted = lines.split(whereSeparator: \.isNewline)
            .map { Self.trimmed(Substring($0)) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") && $0.contains(":") }
            .map { Array($0.utf8) }
    }

    public var isEmpty: Bool { accepted.isEmpty }

    /// Whether an `Authorization` header value lets the request in.
    public func admits(authorization: String?) -> Bool {
        guard let authorization, authorization.count < 4096 else { return false }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let decoded = Data(base64Encoded: Self.trimmed(parts[1]))
        else { return false }
        let offered = Array(decoded)
        // Every pair is compared, match or not.
        var admitted = false
        for pair in accepted where Self.constantTimeEqual(pair, offered) { admitted = true }
        return admitted
    }

    static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }

    /// Equal bytes, in time that depends only on the lengths.
    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        var difference = UInt8(lhs.count == rhs.count ? 0 : 1)
        let count = max(lhs.count, rhs.count)
        for index in 0..<count {
            let a = index < lhs.count ? lhs[index] : 0
            let b = index < rhs.count ? rhs[index] : 0
            difference |= a ^ b
        }
        return difference == 0
    }
}
