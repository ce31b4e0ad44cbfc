extension TLSTrust {
    /// Why `caFile` (with the system store) cannot be loaded as an rtmps:// trust, in the words a
    /// connection would fail with; nil when it loads. For checks before anything starts
    /// (`camcast check-config`, `camcast run`'s start): a bad CA file is a configuration problem.
    public static func problem(caFile: String) -> String? {
        do {
            _ = try TLSTrust(caFile: caFile)
            return nil
        } catch {
            return error.reason
        }
    }
}
