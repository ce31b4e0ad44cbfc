/// Replaces every occurrence of each secret (stream key, secret query values) with `****`.
///
/// Every librtmp log line passes through one before it is logged: at debug levels
/// librtmp prints the playpath and tcUrl (rtmp.c `RTMP_SetupStream`), which contain the key.
public struct StreamKeyRedactor: Sendable {
    public static let mask = "****"

    /// Longest first, so a secret that contains another is masked whole.
    private let secrets: [String]

    public init(secrets: [String]) {
        self.secrets = Array(Set(secrets.filter { !$0.isEmpty })).sorted { $0.count > $1.count }
    }

    public func redact(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacing(secret, with: Self.mask)
        }
        return result
    }
}
